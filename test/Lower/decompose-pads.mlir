// RUN: tcl-opt %s --split-input-file --tcl-decompose-pads | FileCheck %s

// A max pooling's -inf padding: an empty result, a fill of the padding value
// and the source inserted into its interior.

// CHECK-LABEL: func.func @constant_padding
// CHECK-NOT:     tensor.pad
// CHECK:         %[[NEG:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<1x6x6x8xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%[[NEG]] : f32) outs(%[[EMPTY]] : tensor<1x6x6x8xf32>)
// CHECK:         tensor.insert_slice %{{.+}} into %[[FILL]][0, 1, 1, 0] [1, 4, 4, 8] [1, 1, 1, 1]
func.func @constant_padding(%input: tensor<1x4x4x8xf32>) -> tensor<1x6x6x8xf32> {
  %neg = arith.constant 0xFF800000 : f32
  %padded = tensor.pad %input low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %neg : f32
  } : tensor<1x4x4x8xf32> to tensor<1x6x6x8xf32>
  return %padded : tensor<1x6x6x8xf32>
}

// -----

// A padding value computed from the position cannot be a fill: the pad is
// generated element by element.

// CHECK-LABEL: func.func @positional_padding
// CHECK-NOT:     linalg.fill
func.func @positional_padding(%input: tensor<4xf32>) -> tensor<6xf32> {
  %padded = tensor.pad %input low[1] high[1] {
  ^bb0(%i: index):
    %int = arith.index_cast %i : index to i32
    %value = arith.sitofp %int : i32 to f32
    tensor.yield %value : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %padded : tensor<6xf32>
}
