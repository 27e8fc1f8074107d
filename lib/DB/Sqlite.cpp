//===- Sqlite.cpp - A thin RAII layer over the SQLite C API ---------------===//

#include "tcl/DB/Sqlite.h"

#include "llvm/ADT/Twine.h"

#include <sqlite3.h>

using namespace tcl::sqlite;

llvm::Expected<std::unique_ptr<Connection>>
Connection::open(llvm::StringRef path, bool create) {
  sqlite3 *db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  std::string file = path.str();
  if (sqlite3_open_v2(file.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot open database '" + file +
                                       "': " + message);
  }
  // Several workers write at once; let them wait for each other's short
  // transactions instead of failing with SQLITE_BUSY.
  sqlite3_busy_timeout(db, 60000);
  return std::unique_ptr<Connection>(new Connection(db));
}

Connection::~Connection() { sqlite3_close(db); }

llvm::Error Connection::error(llvm::StringRef what) const {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "sqlite: " + what + ": " + sqlite3_errmsg(db));
}

llvm::Error Connection::execute(llvm::StringRef sql) {
  char *message = nullptr;
  std::string text = sql.str();
  if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message ? message : "unknown error";
    sqlite3_free(message);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "sqlite: " + why + " in: " + text);
  }
  return llvm::Error::success();
}

llvm::Expected<Statement> Connection::prepare(llvm::StringRef sql) {
  sqlite3_stmt *statement = nullptr;
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()),
                         &statement, nullptr) != SQLITE_OK)
    return error(("cannot prepare '" + sql + "'").str());
  return Statement(*this, statement);
}

int64_t Connection::lastInsertId() const { return sqlite3_last_insert_rowid(db); }
int64_t Connection::changes() const { return sqlite3_changes(db); }

Statement::Statement(Statement &&other)
    : connection(other.connection), statement(other.statement) {
  other.statement = nullptr;
}

Statement::~Statement() { sqlite3_finalize(statement); }

Statement &Statement::bind(int index, int64_t value) {
  sqlite3_bind_int64(statement, index, value);
  return *this;
}
Statement &Statement::bind(int index, double value) {
  sqlite3_bind_double(statement, index, value);
  return *this;
}
Statement &Statement::bind(int index, llvm::StringRef value) {
  sqlite3_bind_text(statement, index, value.data(), static_cast<int>(value.size()),
                    SQLITE_TRANSIENT);
  return *this;
}
Statement &Statement::bindNull(int index) {
  sqlite3_bind_null(statement, index);
  return *this;
}

llvm::Expected<bool> Statement::step() {
  int code = sqlite3_step(statement);
  if (code == SQLITE_ROW)
    return true;
  if (code == SQLITE_DONE)
    return false;
  return connection->error(std::string("cannot run '") + sqlite3_sql(statement) +
                           "'");
}

llvm::Error Statement::run() {
  llvm::Expected<bool> row = step();
  if (!row)
    return row.takeError();
  reset();
  return llvm::Error::success();
}

void Statement::reset() {
  sqlite3_reset(statement);
  sqlite3_clear_bindings(statement);
}

int64_t Statement::integer(int column) const {
  return sqlite3_column_int64(statement, column);
}
double Statement::real(int column) const {
  return sqlite3_column_double(statement, column);
}
std::string Statement::text(int column) const {
  const unsigned char *value = sqlite3_column_text(statement, column);
  return value ? std::string(reinterpret_cast<const char *>(value),
                             sqlite3_column_bytes(statement, column))
               : std::string();
}
bool Statement::isNull(int column) const {
  return sqlite3_column_type(statement, column) == SQLITE_NULL;
}

llvm::Error tcl::sqlite::transaction(Connection &connection,
                                     llvm::function_ref<llvm::Error()> body) {
  if (llvm::Error error = connection.execute("BEGIN IMMEDIATE"))
    return error;
  if (llvm::Error error = body()) {
    llvm::consumeError(connection.execute("ROLLBACK"));
    return error;
  }
  return connection.execute("COMMIT");
}
