//===- TaskScheduler.h - Sharing a trial budget among tasks -----*- C++ -*-===//
//
// A model's end-to-end time is the sum over its tasks of occurrences x
// latency, so a trial is worth most where it is expected to cut that sum
// most. Following Ansor's task scheduler (Zheng et al., OSDI 2020, §6), each
// round goes to the task with the largest estimated gradient of the
// end-to-end time with respect to its trials:
//
//   weight_i * | alpha * backward_i + (1 - alpha) * forward_i |
//
// backward_i: how fast task i's best latency fell over its last rounds;
// forward_i: -best_i / trials_i, the optimistic guess that the next trials
// improve it as much as the average trial so far did. Every task gets one
// round before any gets a second, and with probability epsilon a round goes
// to a random task, so a task that looked converged early is revisited.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_TASKSCHEDULER_H
#define TCL_TUNE_TASKSCHEDULER_H

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace tcl {

struct TaskSchedulerOptions {
  /// Rounds looked back on for the backward gradient.
  unsigned window = 3;
  double alpha = 0.2;
  double epsilon = 0.05;
  uint64_t seed = 0;
};

class TaskScheduler {
public:
  /// `weights`: occurrences of each task in the model.
  TaskScheduler(std::vector<double> weights, TaskSchedulerOptions options = {});

  /// The task the next round goes to; tasks() if every task is retired.
  size_t next();
  /// Task `task` had a round of `trials` measurements; its best latency is
  /// now `bestSeconds` (infinity while nothing of it ran correctly).
  void record(size_t task, unsigned trials, double bestSeconds);
  /// Task `task` gets no more rounds (its space is exhausted).
  void retire(size_t task);

  size_t tasks() const { return weights.size(); }
  unsigned trials(size_t task) const { return state[task].trials; }
  double best(size_t task) const;
  /// Sum of weight x best latency over the tasks measured so far.
  double estimatedTotal() const;

private:
  struct TaskState {
    unsigned trials = 0;
    bool retired = false;
    /// Best latency and trials so far, after each round.
    std::vector<std::pair<unsigned, double>> history;
  };
  double priority(size_t task) const;

  std::vector<double> weights;
  std::vector<TaskState> state;
  TaskSchedulerOptions options;
  std::mt19937_64 random;
};

} // namespace tcl

#endif // TCL_TUNE_TASKSCHEDULER_H
