// RUN: tcl-opt %s --split-input-file --verify-diagnostics --tcl-print-space

// A knob whose options are not an array cannot be searched.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{knob "t" must list its options as a non-empty array for tcl to search it}}
    %t = transform.tune.knob<"t"> options = affine_map<(d0) -> (d0)> -> !transform.param<i64>
    transform.yield
  }
}

// -----

// Two knobs with one name are one knob: their options must agree.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.tune.knob<"t"> options = [1, 2] -> !transform.param<i64>
    // expected-error @below {{knob "t" appears twice with different options}}
    %b = transform.tune.knob<"t"> options = [1, 4] -> !transform.param<i64>
    transform.yield
  }
}
