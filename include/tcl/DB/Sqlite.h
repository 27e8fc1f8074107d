//===- Sqlite.h - A thin RAII layer over the SQLite C API -------*- C++ -*-===//
//
// Just enough of SQLite for the tuning database: a connection, prepared
// statements with typed binding and reading, and errors as llvm::Error that
// name the failing statement.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_DB_SQLITE_H
#define TCL_DB_SQLITE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace tcl::sqlite {

class Statement;

class Connection {
public:
  /// Opens (creating when `create`) the database file at `path`.
  static llvm::Expected<std::unique_ptr<Connection>>
  open(llvm::StringRef path, bool create);
  ~Connection();

  /// Runs one or more statements without results.
  llvm::Error execute(llvm::StringRef sql);
  llvm::Expected<Statement> prepare(llvm::StringRef sql);
  int64_t lastInsertId() const;
  /// Rows changed by the last INSERT/UPDATE/DELETE.
  int64_t changes() const;
  llvm::Error error(llvm::StringRef what) const;
  sqlite3 *handle() const { return db; }

private:
  explicit Connection(sqlite3 *db) : db(db) {}
  sqlite3 *db;
};

class Statement {
public:
  Statement(Statement &&other);
  Statement(const Statement &) = delete;
  ~Statement();

  /// Binds parameter `index` (1-based).
  Statement &bind(int index, int64_t value);
  Statement &bind(int index, double value);
  Statement &bind(int index, llvm::StringRef value);
  Statement &bindNull(int index);
  template <typename T> Statement &bind(int index, const std::optional<T> &value) {
    return value ? bind(index, *value) : bindNull(index);
  }

  /// Advances to the next row: true when there is one.
  llvm::Expected<bool> step();
  /// Steps a statement that returns no rows.
  llvm::Error run();
  /// Rewinds for another execution, keeping nothing bound.
  void reset();

  int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  bool isNull(int column) const;

private:
  friend class Connection;
  Statement(const Connection &connection, sqlite3_stmt *statement)
      : connection(&connection), statement(statement) {}
  const Connection *connection;
  sqlite3_stmt *statement;
};

/// Runs `body` inside BEGIN IMMEDIATE ... COMMIT; rolls back if it fails.
llvm::Error transaction(Connection &connection,
                        llvm::function_ref<llvm::Error()> body);

} // namespace tcl::sqlite

#endif // TCL_DB_SQLITE_H
