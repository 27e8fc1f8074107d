//===- CanonicalForm.cpp - Name-independent text of a structured op -------===//
//
// Two ops are the same task when they compute the same thing on the same
// shapes. The canonical form therefore prints the iteration space, indexing
// maps, operand types and the payload with positional value names, and
// leaves out op names, SSA names, locations and discardable attributes.
//
//===----------------------------------------------------------------------===//

#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tcl;

namespace {
/// Prints a payload block with values numbered by position, so that the
/// text does not depend on the SSA names of the surrounding function.
class PayloadPrinter {
public:
  explicit PayloadPrinter(llvm::raw_ostream &os) : os(os) {}

  void print(Block &block) {
    for (BlockArgument arg : block.getArguments())
      names[arg] = "%a" + std::to_string(arg.getArgNumber());
    for (Operation &op : block)
      printOp(op);
  }

private:
  void printValue(Value value) {
    auto it = names.find(value);
    if (it != names.end()) {
      os << it->second;
      return;
    }
    // A value captured from outside the payload: a constant is part of the
    // computation; anything else is an opaque scalar of its type.
    Attribute constant;
    if (Operation *def = value.getDefiningOp())
      if (auto constOp = dyn_cast<arith::ConstantOp>(def))
        constant = constOp.getValue();
    if (constant)
      os << "const(" << constant << ")";
    else
      os << "ext(" << value.getType() << ")";
  }

  void printOp(Operation &op) {
    for (Value result : op.getResults())
      names[result] = "%v" + std::to_string(counter++);
    os << op.getName().getStringRef() << "(";
    llvm::interleaveComma(op.getOperands(), os,
                          [&](Value v) { printValue(v); });
    os << ")";
    // Inherent attributes (comparison predicates, fastmath flags) change
    // the computation; discardable ones are metadata.
    if (std::optional<RegisteredOperationName> info = op.getRegisteredInfo()) {
      for (NamedAttribute attr : op.getAttrs())
        if (llvm::is_contained(info->getAttributeNames(), attr.getName()))
          os << "{" << attr.getName().getValue() << "=" << attr.getValue()
             << "}";
    }
    os << ":";
    llvm::interleaveComma(op.getResultTypes(), os);
    os << ";";
  }

  llvm::raw_ostream &os;
  llvm::DenseMap<Value, std::string> names;
  unsigned counter = 0;
};
} // namespace

std::string tcl::canonicalForm(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    os << "softmax{dim=" << softmax.getDimension() << "}("
       << softmax.getInput().getType() << ")";
    return text;
  }
  auto linalgOp = cast<linalg::LinalgOp>(op);
  os << "iterators=[";
  llvm::interleaveComma(linalgOp.getIteratorTypesArray(), os,
                        [&](utils::IteratorType type) {
                          os << utils::stringifyIteratorType(type);
                        });
  os << "] maps=[";
  llvm::interleaveComma(linalgOp.getIndexingMapsArray(), os);
  os << "] operands=[";
  llvm::interleaveComma(op->getOperandTypes(), os);
  os << "] payload={";
  PayloadPrinter(os).print(*linalgOp.getBlock());
  os << "}";
  return text;
}

std::string tcl::stableKey(llvm::StringRef text) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(text.bytes_begin(), text.bytes_end()));
  return llvm::toHex(llvm::ArrayRef<uint8_t>(digest).take_front(8),
                     /*LowerCase=*/true);
}
