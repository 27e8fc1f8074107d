//===- TuningDatabaseTest.cpp - The SQLite tuning database ----------------===//

#include "tcl/DB/TuningDatabase.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace tcl;

namespace {

/// A fresh database file in a temporary directory, removed afterwards.
class TuningDatabaseTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tcl-db-test", directory));
    path = (directory + "/tuning.db").str();
    auto opened = TuningDatabase::open(path);
    ASSERT_TRUE(bool(opened)) << llvm::toString(opened.takeError());
    db = std::move(*opened);
    ASSERT_TRUE(bool(db->addTask({"k1", "matmul", 2e6, "module {}"})));
    ASSERT_FALSE(bool(db->addTarget({"x86_64:x86-64-v3:1t", "x86-64-v3", "", 1})));
  }
  void TearDown() override {
    db.reset();
    llvm::sys::fs::remove_directories(directory);
  }

  RecordRow record(llvm::StringRef assignment, llvm::StringRef status,
                   std::optional<double> median) {
    RecordRow row;
    row.taskKey = "k1";
    row.target = "x86_64:x86-64-v3:1t";
    row.machine = machine;
    row.assignment = assignment.str();
    row.scriptHash = "00";
    row.status = status.str();
    row.medianSeconds = row.minSeconds = median;
    row.samples = median ? 5 : 0;
    return row;
  }

  llvm::SmallString<128> directory;
  std::string path;
  std::unique_ptr<TuningDatabase> db;
  MachineInfo machine{"Test CPU", "znver3", 2};
};

TEST_F(TuningDatabaseTest, BestIsTheMedianOfEachSchedulesRecords) {
  // "a=1" was lucky once and slower when measured again; "a=3" failed when
  // measured again. As the tuner chooses, "a=2" is the best.
  for (double seconds : {1e-3, 4e-3, 5e-3})
    ASSERT_FALSE(bool(db->addRecord(record("a=1", "ok", seconds))));
  ASSERT_FALSE(bool(db->addRecord(record("a=2", "ok", 3e-3))));
  ASSERT_FALSE(bool(db->addRecord(record("a=3", "ok", 0.5e-3))));
  ASSERT_FALSE(bool(db->addRecord(record("a=3", "crash", std::nullopt))));
  auto best = db->best();
  ASSERT_TRUE(bool(best)) << llvm::toString(best.takeError());
  ASSERT_EQ(best->size(), 1u);
  EXPECT_EQ((*best)[0].assignment, "a=2");
  EXPECT_DOUBLE_EQ((*best)[0].medianSeconds, 3e-3);
  EXPECT_EQ((*best)[0].validRecords, 4);
  // Two records: their mean.
  ASSERT_FALSE(bool(db->addRecord(record("a=4", "ok", 1e-3))));
  ASSERT_FALSE(bool(db->addRecord(record("a=4", "ok", 4e-3))));
  best = db->best();
  ASSERT_TRUE(bool(best));
  EXPECT_EQ((*best)[0].assignment, "a=4");
  EXPECT_DOUBLE_EQ((*best)[0].medianSeconds, 2.5e-3);
}

TEST_F(TuningDatabaseTest, BestIgnoresFailedWrongAndScalarRecords) {
  // The wrong result and the scalar fallback are faster than the valid
  // record; neither may win.
  ASSERT_FALSE(bool(db->addRecord(record("a=1", "ok", 3e-3))));
  ASSERT_FALSE(bool(db->addRecord(record("a=2", "wrong_result", 1e-3))));
  RecordRow scalar = record("a=3", "ok", 2e-3);
  scalar.scalarFallback = true;
  ASSERT_FALSE(bool(db->addRecord(scalar)));
  ASSERT_FALSE(bool(db->addRecord(record("a=4", "crash", std::nullopt))));
  ASSERT_FALSE(bool(db->addRecord(record("a=5", "timeout", std::nullopt))));

  auto best = db->best();
  ASSERT_TRUE(bool(best)) << llvm::toString(best.takeError());
  ASSERT_EQ(best->size(), 1u);
  EXPECT_EQ((*best)[0].assignment, "a=1");
  EXPECT_DOUBLE_EQ((*best)[0].medianSeconds, 3e-3);
  EXPECT_EQ((*best)[0].validRecords, 1); // not the scalar one

  auto summary = db->summary();
  ASSERT_TRUE(bool(summary));
  EXPECT_EQ(summary->records, 5);
  EXPECT_EQ(summary->valid, 2);
  ASSERT_EQ(summary->targets.size(), 1u);
  EXPECT_EQ(summary->targets[0].byStatus["crash"], 1);
}

TEST_F(TuningDatabaseTest, RejectsUnknownStatusTaskAndTarget) {
  EXPECT_TRUE(bool(db->addRecord(record("a=1", "fast", 1e-3))));
  RecordRow unknownTask = record("a=1", "ok", 1e-3);
  unknownTask.taskKey = "nope";
  llvm::Error error = db->addRecord(unknownTask);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("unknown task 'nope'"),
            std::string::npos);
  RecordRow unknownTarget = record("a=1", "ok", 1e-3);
  unknownTarget.target = "x86_64:nope:1t";
  EXPECT_TRUE(bool(db->addRecord(unknownTarget)));
  // Nothing of the failed transactions was kept.
  EXPECT_EQ(llvm::cantFail(db->countRecords()), 0);
}

TEST_F(TuningDatabaseTest, ExportImportRoundTripsAndSkipsKnownRecords) {
  ASSERT_FALSE(bool(db->addRecord(record("a=1", "ok", 3e-3))));
  ASSERT_FALSE(bool(db->addRecord(record("a=2", "crash", std::nullopt))));
  ASSERT_FALSE(bool(db->addTaskNetwork("k1", "net", 3)));
  BaselineRow baseline;
  baseline.taskKey = "k1";
  baseline.target = "x86_64:x86-64-v3:1t";
  baseline.machine = machine;
  baseline.library = "onednn";
  baseline.status = "ok";
  baseline.medianSeconds = 2e-3;
  ASSERT_FALSE(bool(db->addBaseline(baseline)));

  std::string text;
  llvm::raw_string_ostream os(text);
  ASSERT_FALSE(bool(db->exportJsonLines(os)));

  auto copy = TuningDatabase::open(path + ".copy");
  ASSERT_TRUE(bool(copy));
  int64_t added = 0;
  ASSERT_FALSE(bool((*copy)->importJsonLines(text, "export.jsonl", added)));
  EXPECT_EQ(added, 2);
  ASSERT_FALSE(bool((*copy)->importJsonLines(text, "export.jsonl", added)));
  EXPECT_EQ(added, 0);

  std::string again;
  llvm::raw_string_ostream againOs(again);
  ASSERT_FALSE(bool((*copy)->exportJsonLines(againOs)));
  EXPECT_EQ(text, again);
  auto best = (*copy)->best();
  ASSERT_TRUE(bool(best));
  ASSERT_EQ(best->size(), 1u);
  ASSERT_TRUE((*best)[0].baselineSeconds.has_value());
  EXPECT_DOUBLE_EQ(*(*best)[0].baselineSeconds, 2e-3);
}

TEST_F(TuningDatabaseTest, ImportNamesTheBadLineAndAddsNothing) {
  std::string text;
  llvm::raw_string_ostream os(text);
  ASSERT_FALSE(bool(db->addRecord(record("a=1", "ok", 3e-3))));
  ASSERT_FALSE(bool(db->exportJsonLines(os)));
  text += "{\"type\": \"record\", \"task\": \"k1\"}\n";
  auto copy = TuningDatabase::open(path + ".copy");
  ASSERT_TRUE(bool(copy));
  int64_t added = 0;
  llvm::Error error = (*copy)->importJsonLines(text, "bad.jsonl", added);
  ASSERT_TRUE(bool(error));
  std::string message = llvm::toString(std::move(error));
  EXPECT_NE(message.find("bad.jsonl:4: missing or mistyped field 'target'"),
            std::string::npos)
      << message;
  EXPECT_EQ(llvm::cantFail((*copy)->countRecords()), 0);
}

TEST_F(TuningDatabaseTest, MeasuredAssignmentsArePerTargetAndMachine) {
  ASSERT_FALSE(bool(db->addRecord(record("a=1", "ok", 3e-3))));
  ASSERT_FALSE(bool(db->addRecord(record("a=2", "crash", std::nullopt))));
  auto here = db->measuredAssignments("k1", "x86_64:x86-64-v3:1t", machine);
  ASSERT_TRUE(bool(here));
  EXPECT_EQ(*here, (std::vector<std::string>{"a=1", "a=2"}));
  MachineInfo other{"Other CPU", "skylake", 4};
  auto there = db->measuredAssignments("k1", "x86_64:x86-64-v3:1t", other);
  ASSERT_TRUE(bool(there));
  EXPECT_TRUE(there->empty());
}

TEST_F(TuningDatabaseTest, ReplacingStaleRecordsKeepsNewerOnesAndOtherSchedules) {
  // Two stale records of a=1 (two machines), one of a=2, and a newer a=3.
  RecordRow stale = record("a=1", "ok", 9e-3);
  stale.createdAt = 100;
  ASSERT_FALSE(bool(db->addRecord(stale)));
  stale.machine = {"Other CPU", "skylake", 4};
  ASSERT_FALSE(bool(db->addRecord(stale)));
  RecordRow other = record("a=2", "ok", 5e-3);
  other.createdAt = 150;
  ASSERT_FALSE(bool(db->addRecord(other)));
  RecordRow newer = record("a=3", "ok", 4e-3);
  newer.createdAt = 300;
  ASSERT_FALSE(bool(db->addRecord(newer)));

  auto before = db->staleAssignments("k1", "x86_64:x86-64-v3:1t", 200);
  ASSERT_TRUE(bool(before));
  EXPECT_EQ(*before, (std::vector<std::string>{"a=1", "a=2"}));

  RecordRow fresh = record("a=1", "ok", 3e-3);
  fresh.createdAt = 400;
  ASSERT_FALSE(bool(db->replaceStaleRecords(fresh, 200)));
  auto after = db->staleAssignments("k1", "x86_64:x86-64-v3:1t", 200);
  ASSERT_TRUE(bool(after));
  EXPECT_EQ(*after, (std::vector<std::string>{"a=2"}));
  auto records = db->records("k1");
  ASSERT_TRUE(bool(records));
  std::vector<std::pair<std::string, int64_t>> kept;
  for (const RecordRow &row : *records)
    kept.push_back({row.assignment, row.createdAt});
  EXPECT_EQ(kept, (std::vector<std::pair<std::string, int64_t>>{
                      {"a=2", 150}, {"a=3", 300}, {"a=1", 400}}));
  // Another target's records of the same schedule are not stale here.
  EXPECT_TRUE(llvm::cantFail(
                  db->staleAssignments("k1", "x86_64:x86-64-v2:1t", 200))
                  .empty());
}

TEST(TuningDatabase, RefusesAFileThatIsNotADatabase) {
  llvm::SmallString<128> file;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tcl-not-db", "db", file));
  {
    std::error_code error;
    llvm::raw_fd_ostream os(file, error);
    os << "this is not sqlite\n";
  }
  auto opened = TuningDatabase::open(file, /*create=*/false);
  ASSERT_FALSE(bool(opened));
  EXPECT_NE(llvm::toString(opened.takeError()).find("not a tcl tuning database"),
            std::string::npos);
  llvm::sys::fs::remove(file);
}

} // namespace
