//===- TemplateWriter.cpp - Writing schedule templates as text ------------===//

#include "TemplateWriter.h"

#include "llvm/ADT/StringExtras.h"

#include <numeric>

using namespace tcl;

std::vector<int64_t> tcl::dividingOptions(int64_t size,
                                          llvm::ArrayRef<int64_t> candidates,
                                          int64_t fullCap) {
  std::vector<int64_t> options;
  for (int64_t candidate : candidates)
    if (candidate < size && size % candidate == 0)
      options.push_back(candidate);
  if (size <= fullCap || options.empty())
    options.push_back(size);
  return options;
}

std::vector<int64_t> tcl::optionsUpTo(int64_t size,
                                      llvm::ArrayRef<int64_t> candidates) {
  std::vector<int64_t> options;
  for (int64_t candidate : candidates)
    if (candidate <= size)
      options.push_back(candidate);
  if (options.empty())
    options.push_back(size);
  return options;
}

std::string TemplateWriter::knob(llvm::StringRef name,
                                 llvm::ArrayRef<int64_t> options) {
  knobNames.push_back(name.str());
  std::string list;
  llvm::raw_string_ostream os(list);
  llvm::interleaveComma(options, os);
  knobs += llvm::formatv("    %{0} = transform.tune.knob<\"{1}\"> options = "
                         "[{2}] -> !transform.param<i64>\n",
                         name, qualified(name), list)
               .str();
  return "%" + name.str();
}

void TemplateWriter::constrain(llvm::StringRef expression) {
  constraints.push_back(expression.str());
}

std::string TemplateWriter::fresh(llvm::StringRef stem) {
  return "%" + stem.str() + std::to_string(counter++);
}

std::pair<std::string, std::vector<std::string>>
TemplateWriter::tile(llvm::StringRef target, llvm::ArrayRef<std::string> sizes,
                     llvm::ArrayRef<int64_t> interchange,
                     llvm::StringRef targetType) {
  std::vector<std::string> operandTypes{targetType.str()};
  unsigned loopCount = 0;
  for (const std::string &size : sizes) {
    if (size.front() == '%')
      operandTypes.push_back("!transform.param<i64>");
    if (size != "0")
      ++loopCount;
  }
  std::string tiled = fresh("tiled");
  std::vector<std::string> loops;
  std::string loopStem = fresh("loops").substr(1);
  for (unsigned i = 0; i < loopCount; ++i)
    loops.push_back(llvm::formatv("%{0}#{1}", loopStem, i).str());
  std::string resultTypes = "!transform.any_op";
  for (unsigned i = 0; i < loopCount; ++i)
    resultTypes += ", !transform.any_op";
  std::string text = llvm::formatv("{0}, %{1}:{2} = transform.structured."
                                   "tile_using_for {3} tile_sizes [{4}]",
                                   tiled, loopStem, loopCount, target,
                                   llvm::join(sizes, ", "))
                         .str();
  bool identity = true;
  for (auto [position, loop] : llvm::enumerate(interchange))
    identity &= static_cast<int64_t>(position) == loop;
  if (!identity) {
    std::string order;
    llvm::raw_string_ostream os(order);
    llvm::interleaveComma(interchange, os);
    text += " interchange = [" + order + "]";
  }
  text += " : (" + llvm::join(operandTypes, ", ") + ") -> (" + resultTypes + ")";
  line(text);
  return {tiled, loops};
}

std::string TemplateWriter::splitAcrossThreads(
    llvm::StringRef op, llvm::ArrayRef<int64_t> bounds,
    llvm::ArrayRef<unsigned> parallelLoops,
    const std::vector<std::pair<unsigned, std::string>> &cacheKnobOfLoop) {
  int64_t threads = cpu().threads;
  std::vector<unsigned> candidates;
  for (unsigned loop : parallelLoops)
    if (threads > 1 && bounds[loop] >= threads && bounds[loop] % threads == 0)
      candidates.push_back(loop);
  if (candidates.empty())
    return op.str();
  std::vector<int64_t> regions(candidates.size());
  std::iota(regions.begin(), regions.end(), 0);
  std::string choice = knob("thread_dim", regions);
  for (auto [region, loop] : llvm::enumerate(candidates))
    for (const auto &[tiledLoop, cacheKnob] : cacheKnobOfLoop)
      if (tiledLoop == loop && !cacheKnob.empty())
        constrain(llvm::formatv("thread_dim != {0} || {1} % {2} == 0", region,
                                bounds[loop] / threads,
                                llvm::StringRef(cacheKnob).drop_front())
                      .str());
  std::string inside = fresh("per_thread");
  line(llvm::formatv("{0} = transform.tune.alternatives<\"thread_dim\"> "
                     "selected_region = {1} : !transform.param<i64> -> "
                     "!transform.any_op",
                     inside, choice));
  for (unsigned loop : candidates) {
    std::vector<std::string> sizes(bounds.size(), "0");
    sizes[loop] = std::to_string(bounds[loop] / threads);
    std::string tiled = fresh("thread_tile");
    line("{");
    line(llvm::formatv("{0}, {0}_forall = transform.structured.tile_using_forall "
                       "{1} tile_sizes [{2}] : (!transform.any_op) -> "
                       "(!transform.any_op, !transform.any_op)",
                       tiled, op, llvm::join(sizes, ", ")));
    line("transform.yield " + tiled + " : !transform.any_op");
    line("}");
  }
  return inside;
}

void TemplateWriter::fuseIntoConsumer(mlir::AffineMap outputMap,
                                      llvm::ArrayRef<std::string> loopSizes,
                                      llvm::ArrayRef<int64_t> loopOrder) {
  std::vector<std::string> sizes;
  std::vector<int64_t> interchange;
  for (unsigned result = 0; result < outputMap.getNumResults(); ++result)
    sizes.push_back(loopSizes[outputMap.getDimPosition(result)]);
  for (int64_t loop : loopOrder)
    for (unsigned result = 0; result < outputMap.getNumResults(); ++result)
      if (outputMap.getDimPosition(result) == loop)
        interchange.push_back(result);
  std::string root = fresh("fusion_root");
  line(llvm::formatv("{0} = transform.structured.match attributes "
                     "{{tcl.fusion_root = \"{1}\"} in %root : "
                     "(!transform.any_op) -> !transform.any_op",
                     root, key));
  // Tile the root, then fuse exactly the task's ops into the innermost
  // tile loop: its other consumers, nearest first, and the anchor.
  // Greedy producer fusion (transform.structured.fuse) would also pull in
  // whatever computes the task's inputs in the model (a padding, the
  // previous layer), recomputing it for every tile.
  std::vector<int64_t> order;
  for (unsigned result = 0; result < sizes.size(); ++result)
    order.push_back(result);
  auto [tiledRoot, tileLoops] = tile(root, sizes, interchange.empty() ? order
                                                                     : interchange);
  if (tileLoops.empty())
    return;
  std::string chain = fresh("fused_chain");
  line(llvm::formatv("{0} = transform.structured.match attributes "
                     "{{tcl.fused_consumer = \"{1}\"} in %func : "
                     "(!transform.any_op) -> !transform.any_op",
                     chain, key));
  std::string anchor = fresh("fused_anchor");
  line(llvm::formatv("{0} = transform.structured.match attributes "
                     "{{tcl.task = \"{1}\"} in %func : (!transform.any_op) -> "
                     "!transform.any_op",
                     anchor, key));
  std::string producers = fresh("producers");
  line(llvm::formatv("{0} = transform.merge_handles {1}, {2} : "
                     "!transform.any_op",
                     producers, chain, anchor));
  line(llvm::formatv("{0}, {0}_loop = transform.structured."
                     "fuse_into_containing_op {1} into {2} : (!transform.any_op, "
                     "!transform.any_op) -> (!transform.any_op, !transform.any_op)",
                     fresh("fused"), producers, tileLoops.back()));
  // The unfused originals are dead now; remove them before the task's ops
  // are matched again.
  line("transform.apply_dce to %func : !transform.any_op");
}

void TemplateWriter::peel(llvm::StringRef loop) {
  std::string cast = fresh("for");
  line(llvm::formatv("{0} = transform.cast {1} : !transform.any_op to "
                     "!transform.op<\"scf.for\">",
                     cast, loop));
  line(llvm::formatv("transform.sequence {0} : !transform.op<\"scf.for\"> "
                     "failures(suppress) {{",
                     cast));
  line("^bb0(%loop: !transform.op<\"scf.for\">):");
  line("  transform.loop.peel %loop : (!transform.op<\"scf.for\">) -> "
       "(!transform.any_op, !transform.any_op)");
  line("  transform.yield");
  line("}");
}

void TemplateWriter::vectorizeAndHoist() {
  line("transform.apply_patterns to %func { "
       "transform.apply_patterns.canonicalization } : !transform.any_op");
  line(llvm::formatv("%vectorized = transform.structured.match attributes "
                     "{{tcl.task = \"{0}\"} in %func : (!transform.any_op) -> "
                     "!transform.any_op",
                     key));
  line("transform.structured.vectorize %vectorized : !transform.any_op");
  line("transform.apply_patterns to %func {");
  line("  transform.apply_patterns.vector.reduction_to_contract");
  line("  transform.apply_patterns.vector.transfer_permutation_patterns");
  line("} : !transform.any_op");
  line("transform.apply_patterns to %func {");
  line("  transform.apply_patterns.vector.cast_away_vector_leading_one_dim");
  line("  transform.apply_patterns.vector.drop_unit_dims_with_shape_cast");
  line("} : !transform.any_op");
  line("transform.apply_patterns to %func { "
       "transform.apply_patterns.canonicalization } : !transform.any_op");
  line("%all_loops = transform.structured.match ops{[\"scf.for\"]} in %func : "
       "(!transform.any_op) -> !transform.any_op");
  line("transform.apply_licm to %all_loops : !transform.any_op");
  line("transform.loop.hoist_loop_invariant_subsets %all_loops : "
       "!transform.any_op");
  line("transform.apply_patterns to %func { "
       "transform.apply_patterns.vector.lower_contraction lowering_strategy = "
       "outerproduct } : !transform.any_op");
}

std::string TemplateWriter::str() const {
  // Constraints name knobs unqualified; qualify every identifier that is a
  // knob of this template.
  auto qualify = [&](const std::string &expression) {
    std::string out;
    for (size_t i = 0; i < expression.size();) {
      char c = expression[i];
      if (llvm::isAlpha(c) || c == '_') {
        size_t j = i;
        while (j < expression.size() &&
               (llvm::isAlnum(expression[j]) || expression[j] == '_'))
          ++j;
        std::string word = expression.substr(i, j - i);
        out += llvm::is_contained(knobNames, word) ? qualified(word) : word;
        i = j;
        continue;
      }
      out += c;
      ++i;
    }
    return "\"" + out + "\"";
  };
  std::vector<std::string> quoted;
  for (const std::string &constraint : constraints)
    quoted.push_back(qualify(constraint));
  return llvm::formatv(
             "  transform.named_sequence @tcl_{0}(%root: !transform.any_op "
             "{{transform.readonly}) attributes {{tcl.kind = \"{1}\", "
             "tcl.constraints = [{2}]} {{\n"
             "    %op = transform.structured.match attributes {{tcl.task = "
             "\"{0}\"} in %root : (!transform.any_op) -> !transform.any_op\n"
             "    %func = transform.get_parent_op %op {{deduplicate, op_name = "
             "\"func.func\"} : (!transform.any_op) -> !transform.any_op\n"
             "    %task_key = transform.param.constant \"{0}\" -> "
             "!transform.any_param\n"
             "{3}{4}    transform.yield\n  }\n",
             key, kindName, llvm::join(quoted, ", "), knobs, body)
      .str();
}
