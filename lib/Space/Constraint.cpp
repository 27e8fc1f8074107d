//===- Constraint.cpp - Legality constraints between knobs ----------------===//

#include "tcl/Space/Constraint.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>

using namespace tcl;

/// An expression tree node: a literal, a knob reference, or an operator.
struct Constraint::Node {
  enum class Kind { Literal, Knob, Negate, Binary } kind;
  int64_t value = 0;   ///< Literal value or knob index.
  std::string op;      ///< Binary operator spelling.
  std::shared_ptr<const Node> lhs, rhs;

  std::optional<int64_t> evaluate(llvm::ArrayRef<int64_t> values) const {
    switch (kind) {
    case Kind::Literal:
      return value;
    case Kind::Knob:
      return values[value];
    case Kind::Negate: {
      std::optional<int64_t> operand = lhs->evaluate(values);
      return operand ? std::optional<int64_t>(-*operand) : std::nullopt;
    }
    case Kind::Binary:
      break;
    }
    std::optional<int64_t> a = lhs->evaluate(values);
    if (!a)
      return std::nullopt;
    // Short-circuit so that "x == 0 || n % x == 0" is well defined.
    if (op == "&&" && !*a)
      return 0;
    if (op == "||" && *a)
      return 1;
    std::optional<int64_t> b = rhs->evaluate(values);
    if (!b)
      return std::nullopt;
    if (op == "&&" || op == "||")
      return *b != 0;
    if (op == "+") return *a + *b;
    if (op == "-") return *a - *b;
    if (op == "*") return *a * *b;
    if (op == "/" || op == "%") {
      if (*b == 0)
        return std::nullopt;
      return op == "/" ? *a / *b : *a % *b;
    }
    if (op == "==") return *a == *b;
    if (op == "!=") return *a != *b;
    if (op == "<") return *a < *b;
    if (op == "<=") return *a <= *b;
    if (op == ">") return *a > *b;
    return *a >= *b; // ">="
  }
};

namespace {
/// Recursive-descent parser over the C-like grammar in Constraint.h.
class Parser {
public:
  Parser(llvm::StringRef text, llvm::function_ref<int(llvm::StringRef)> index,
         std::vector<unsigned> &used)
      : rest(text), knobIndex(index), usedKnobs(used) {}

  llvm::Expected<std::shared_ptr<const Constraint::Node>> parseAll() {
    auto node = parseBinary(0);
    if (!node)
      return node.takeError();
    rest = rest.ltrim();
    if (!rest.empty())
      return llvm::createStringError("unexpected '" + rest.take_front(8).str() +
                                     "'");
    return node;
  }

private:
  using NodePtr = std::shared_ptr<const Constraint::Node>;

  /// Operators by precedence level, loosest first.
  static llvm::ArrayRef<const char *> level(unsigned index) {
    static const std::vector<std::vector<const char *>> levels = {
        {"||"}, {"&&"}, {"==", "!="}, {"<=", ">=", "<", ">"},
        {"+", "-"}, {"*", "/", "%"}};
    return levels[index];
  }
  static constexpr unsigned kLevels = 6;

  llvm::Expected<NodePtr> parseBinary(unsigned precedence) {
    if (precedence == kLevels)
      return parseUnary();
    auto lhs = parseBinary(precedence + 1);
    if (!lhs)
      return lhs.takeError();
    while (true) {
      rest = rest.ltrim();
      const char *matched = nullptr;
      for (const char *op : level(precedence))
        if (rest.starts_with(op)) {
          matched = op;
          break;
        }
      if (!matched)
        return lhs;
      rest = rest.drop_front(llvm::StringRef(matched).size());
      auto rhs = parseBinary(precedence + 1);
      if (!rhs)
        return rhs.takeError();
      auto node = std::make_shared<Constraint::Node>();
      node->kind = Constraint::Node::Kind::Binary;
      node->op = matched;
      node->lhs = *lhs;
      node->rhs = *rhs;
      lhs = NodePtr(node);
    }
  }

  llvm::Expected<NodePtr> parseUnary() {
    rest = rest.ltrim();
    if (rest.consume_front("-")) {
      auto operand = parseUnary();
      if (!operand)
        return operand.takeError();
      auto node = std::make_shared<Constraint::Node>();
      node->kind = Constraint::Node::Kind::Negate;
      node->lhs = *operand;
      return NodePtr(node);
    }
    if (rest.consume_front("(")) {
      auto inner = parseBinary(0);
      if (!inner)
        return inner.takeError();
      rest = rest.ltrim();
      if (!rest.consume_front(")"))
        return llvm::createStringError("missing ')'");
      return inner;
    }
    auto node = std::make_shared<Constraint::Node>();
    size_t digits = 0;
    while (digits < rest.size() && llvm::isDigit(rest[digits]))
      ++digits;
    if (digits > 0) {
      if (rest.take_front(digits).getAsInteger(10, node->value))
        return llvm::createStringError("integer out of range");
      rest = rest.drop_front(digits);
      node->kind = Constraint::Node::Kind::Literal;
      return NodePtr(node);
    }
    size_t length = 0;
    while (length < rest.size() &&
           (llvm::isAlnum(rest[length]) || rest[length] == '_' ||
            rest[length] == '.'))
      ++length;
    if (length == 0)
      return llvm::createStringError(
          rest.empty() ? "expression ends early"
                       : "unexpected '" + rest.take_front(1).str() + "'");
    llvm::StringRef name = rest.take_front(length);
    rest = rest.drop_front(length);
    int index = knobIndex(name);
    if (index < 0)
      return llvm::createStringError("no knob named '" + name.str() + "'");
    node->kind = Constraint::Node::Kind::Knob;
    node->value = index;
    usedKnobs.push_back(index);
    return NodePtr(node);
  }

  llvm::StringRef rest;
  llvm::function_ref<int(llvm::StringRef)> knobIndex;
  std::vector<unsigned> &usedKnobs;
};
} // namespace

llvm::Expected<Constraint>
Constraint::parse(llvm::StringRef text,
                  llvm::function_ref<int(llvm::StringRef)> knobIndex) {
  Constraint constraint;
  constraint.source = text.str();
  Parser parser(text, knobIndex, constraint.usedKnobs);
  auto root = parser.parseAll();
  if (!root)
    return root.takeError();
  constraint.root = *root;
  llvm::sort(constraint.usedKnobs);
  constraint.usedKnobs.erase(llvm::unique(constraint.usedKnobs),
                             constraint.usedKnobs.end());
  return constraint;
}

bool Constraint::holds(llvm::ArrayRef<int64_t> values) const {
  std::optional<int64_t> result = root->evaluate(values);
  return result && *result != 0;
}
