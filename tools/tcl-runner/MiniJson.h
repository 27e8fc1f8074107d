//===- MiniJson.h - The small JSON reader tcl-runner needs ------*- C++ -*-===//
//
// tcl-runner must build on a GPU host that has only the CUDA toolkit (no
// LLVM, no MLIR, no third-party JSON library), so it reads its launch
// configs with this: a strict recursive-descent parser for the JSON that
// tcl-gpu-export-kernels writes. Errors carry the byte offset.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUNNER_MINIJSON_H
#define TCL_RUNNER_MINIJSON_H

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace minijson {

struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::map<std::string, Value> object;

  bool has(const std::string &key) const {
    return kind == Kind::Object && object.count(key);
  }
  /// The member `key`; throws when this is not an object or lacks it.
  const Value &at(const std::string &key) const {
    if (kind != Kind::Object || !object.count(key))
      throw std::runtime_error("missing \"" + key + "\"");
    return object.at(key);
  }
  int64_t asInt() const {
    if (kind != Kind::Number)
      throw std::runtime_error("expected a number");
    return static_cast<int64_t>(number);
  }
  const std::string &asString() const {
    if (kind != Kind::String)
      throw std::runtime_error("expected a string");
    return string;
  }
  const std::vector<Value> &asArray() const {
    if (kind != Kind::Array)
      throw std::runtime_error("expected an array");
    return array;
  }
};

class Parser {
public:
  explicit Parser(const std::string &text) : text(text) {}

  Value parse() {
    Value value = parseValue();
    skipSpace();
    if (at != text.size())
      fail("trailing characters");
    return value;
  }

private:
  [[noreturn]] void fail(const std::string &what) {
    throw std::runtime_error(what + " at byte " + std::to_string(at));
  }
  void skipSpace() {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\n' ||
                                text[at] == '\t' || text[at] == '\r'))
      ++at;
  }
  bool consume(const char *word) {
    size_t length = std::char_traits<char>::length(word);
    if (text.compare(at, length, word) != 0)
      return false;
    at += length;
    return true;
  }
  Value parseValue() {
    skipSpace();
    if (at >= text.size())
      fail("unexpected end");
    Value value;
    char c = text[at];
    if (c == '{') {
      value.kind = Value::Kind::Object;
      ++at;
      skipSpace();
      if (at < text.size() && text[at] == '}') {
        ++at;
        return value;
      }
      for (;;) {
        skipSpace();
        std::string key = parseString();
        skipSpace();
        if (at >= text.size() || text[at] != ':')
          fail("expected ':'");
        ++at;
        value.object[key] = parseValue();
        skipSpace();
        if (at < text.size() && text[at] == ',') {
          ++at;
          continue;
        }
        if (at < text.size() && text[at] == '}') {
          ++at;
          return value;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      value.kind = Value::Kind::Array;
      ++at;
      skipSpace();
      if (at < text.size() && text[at] == ']') {
        ++at;
        return value;
      }
      for (;;) {
        value.array.push_back(parseValue());
        skipSpace();
        if (at < text.size() && text[at] == ',') {
          ++at;
          continue;
        }
        if (at < text.size() && text[at] == ']') {
          ++at;
          return value;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      value.kind = Value::Kind::String;
      value.string = parseString();
      return value;
    }
    if (consume("true")) {
      value.kind = Value::Kind::Bool;
      value.boolean = true;
      return value;
    }
    if (consume("false")) {
      value.kind = Value::Kind::Bool;
      return value;
    }
    if (consume("null"))
      return value;
    size_t end = at;
    while (end < text.size() &&
           std::string("+-.eE0123456789").find(text[end]) != std::string::npos)
      ++end;
    if (end == at)
      fail("unexpected character");
    value.kind = Value::Kind::Number;
    try {
      value.number = std::stod(text.substr(at, end - at));
    } catch (const std::exception &) {
      fail("bad number");
    }
    at = end;
    return value;
  }
  std::string parseString() {
    if (at >= text.size() || text[at] != '"')
      fail("expected a string");
    ++at;
    std::string result;
    while (at < text.size() && text[at] != '"') {
      char c = text[at++];
      if (c != '\\') {
        result += c;
        continue;
      }
      if (at >= text.size())
        fail("unterminated escape");
      char escaped = text[at++];
      switch (escaped) {
      case 'n': result += '\n'; break;
      case 't': result += '\t'; break;
      case 'r': result += '\r'; break;
      case 'b': result += '\b'; break;
      case 'f': result += '\f'; break;
      case 'u': {
        if (at + 4 > text.size())
          fail("short \\u escape");
        unsigned code = std::stoul(text.substr(at, 4), nullptr, 16);
        at += 4;
        // Launch configs are ASCII; anything else is kept as UTF-8.
        if (code < 0x80) {
          result += static_cast<char>(code);
        } else if (code < 0x800) {
          result += static_cast<char>(0xC0 | (code >> 6));
          result += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          result += static_cast<char>(0xE0 | (code >> 12));
          result += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          result += static_cast<char>(0x80 | (code & 0x3F));
        }
        break;
      }
      default: result += escaped; break;
      }
    }
    if (at >= text.size())
      fail("unterminated string");
    ++at;
    return result;
  }

  const std::string &text;
  size_t at = 0;
};

inline Value parse(const std::string &text) { return Parser(text).parse(); }

/// `text` as a JSON string literal.
inline std::string quote(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

} // namespace minijson

#endif // TCL_RUNNER_MINIJSON_H
