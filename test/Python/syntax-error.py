# RUN: %python %s | FileCheck %s

import tcl

# Bad input raises ValueError carrying the parser's file:line:col diagnostic
# and the offending source line.
BAD = """func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %a : tensor<4xf32>
  return %r
}
"""
try:
    tcl.extract_tasks(BAD, "broken.mlir")
    print("no error")
except ValueError as error:
    # CHECK: ValueError
    # CHECK-NEXT: broken.mlir:3:12: error: expected ':'
    # CHECK-NEXT:   return %r
    print("ValueError")
    print(error)

# Unregistered dialects and verifier errors are ValueErrors too.
for source in ['"torch.aten.relu"() : () -> ()',
               "func.func @g(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
               "  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>\n"
               "  return %r : tensor<4x4xf32>\n}\n"]:
    try:
        tcl.extract_tasks(source, "other.mlir")
        print("no error")
    except ValueError as error:
        print(str(error).splitlines()[0])
# CHECK: other.mlir:1:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
# CHECK: other.mlir:2:{{[0-9]+}}: error: {{.*}}
# CHECK-NOT: no error
