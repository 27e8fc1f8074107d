//===- tcl-runner.cpp - Run compiled GPU kernels and time them ------------===//
//
// The GPU half of tcl's build/run split: tcl builds PTX (or cubin) plus a
// JSON launch config per candidate on any machine; this program, which
// needs only the CUDA driver API and cuBLAS, runs a directory of them on
// the GPU it finds and writes one JSON line of results per candidate.
//
// Each candidate is `<name>.json` (from tcl-gpu-export-kernels, plus the
// fields the batch builder adds) next to its kernel image:
//   kernel, image, format, grid[3], block[3]
//   signature: the host function's arguments [{shape, element}]; the last
//              one is the output, which the kernel accumulates into
//   args:      the kernel's parameters [{arg: signature index}]
//   task:      the task key; candidates of one task get identical inputs
//   check:     {"gemm": {batch, m, n, k}}: compared with cuBLAS, or
//              {"reference": "<name>.json"}: compared with that kernel
// Inputs are uniform in [-1, 1) from a generator seeded by the task key,
// the output starts at the same pseudo-random values for every candidate.
//
//   cudnn:     (convolutions) {n, c, k, input[2], filter[2], stride[2],
//              dilation[2], groups}: the shape --baselines times with cuDNN
// Timing: `--warmup` launches, then `--repeats` launches timed each with
// CUDA events; the median and minimum are reported. A candidate that fails
// to load or launch, or faults, is reported with its status and the
// context is reset, so one bad kernel never stops a batch.
//
//===----------------------------------------------------------------------===//

#include "MiniJson.h"

#include <cublas_v2.h>
#include <cuda.h>
#ifdef TCL_RUNNER_CUDNN
#include <cudnn.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string batchDir;
  std::string output = "-";
  int warmup = 3;
  int repeats = 20;
  int device = 0;
  bool baselines = false;
};

/// A failure of one candidate: its status ("load_error", "launch_error",
/// "crash", "wrong_result", "bad_config") and why.
struct CandidateError {
  std::string status, message;
};

std::string errorName(CUresult result) {
  const char *name = nullptr;
  cuGetErrorName(result, &name);
  return name ? name : "unknown CUDA error";
}

/// Whether `result` leaves the context unusable (a fault in a kernel).
bool isSticky(CUresult result) {
  return result == CUDA_ERROR_ILLEGAL_ADDRESS ||
         result == CUDA_ERROR_LAUNCH_FAILED ||
         result == CUDA_ERROR_MISALIGNED_ADDRESS ||
         result == CUDA_ERROR_ILLEGAL_INSTRUCTION ||
         result == CUDA_ERROR_HARDWARE_STACK_ERROR ||
         result == CUDA_ERROR_INVALID_PC ||
         result == CUDA_ERROR_LAUNCH_TIMEOUT;
}

void check(CUresult result, const std::string &status, const std::string &what) {
  if (result != CUDA_SUCCESS)
    throw CandidateError{isSticky(result) ? "crash" : status,
                         what + ": " + errorName(result)};
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw CandidateError{"bad_config", "cannot read " + path};
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// Deterministic inputs: xorshift64* seeded by the task key and argument.
std::vector<float> randomValues(size_t count, const std::string &task,
                                size_t argument) {
  uint64_t state = 1469598103934665603ull;
  for (char c : task)
    state = (state ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  state ^= (argument + 1) * 0x9E3779B97F4A7C15ull;
  std::vector<float> values(count);
  for (float &value : values) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    uint64_t bits = state * 2685821657736338717ull;
    value = static_cast<float>(bits >> 40) / static_cast<float>(1 << 24) * 2 - 1;
  }
  return values;
}

struct Buffer {
  std::vector<int64_t> shape;
  size_t count = 1;
  CUdeviceptr device = 0;
};

/// A candidate's kernel, loaded, with buffers for its signature.
struct Candidate {
  minijson::Value config;
  std::string name, task;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::vector<Buffer> buffers;
  std::vector<size_t> parameters;

  ~Candidate() {
    for (Buffer &buffer : buffers)
      if (buffer.device)
        cuMemFree(buffer.device);
    if (module)
      cuModuleUnload(module);
  }

  size_t outputIndex() const { return buffers.size() - 1; }

  void load(const std::string &dir, const std::string &configName) {
    name = configName.substr(0, configName.size() - 5);
    try {
      config = minijson::parse(readFile(dir + "/" + configName));
      task = config.has("task") ? config.at("task").asString() : name;
      for (const minijson::Value &entry : config.at("signature").asArray()) {
        if (entry.at("element").asString() != "f32")
          throw CandidateError{"bad_config",
                               "only f32 buffers are supported, not " +
                                   entry.at("element").asString()};
        Buffer buffer;
        for (const minijson::Value &size : entry.at("shape").asArray()) {
          buffer.shape.push_back(size.asInt());
          buffer.count *= size.asInt();
        }
        buffers.push_back(std::move(buffer));
      }
      for (const minijson::Value &arg : config.at("args").asArray()) {
        int64_t index = arg.at("arg").asInt();
        if (index < 0 || static_cast<size_t>(index) >= buffers.size())
          throw CandidateError{"bad_config", "argument index out of range"};
        parameters.push_back(index);
      }
    } catch (const std::runtime_error &error) {
      throw CandidateError{"bad_config", configName + ": " + error.what()};
    }
    if (buffers.empty())
      throw CandidateError{"bad_config", configName + ": empty signature"};
    std::string image = readFile(dir + "/" + config.at("image").asString());
    if (config.at("format").asString() == "ptx")
      image.push_back('\0');
    char log[8192] = {0};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>(sizeof log)};
    CUresult loaded = cuModuleLoadDataEx(&module, image.data(), 2, options, values);
    if (loaded != CUDA_SUCCESS)
      throw CandidateError{"load_error", errorName(loaded) + ": " + log};
    check(cuModuleGetFunction(&function, module,
                              config.at("kernel").asString().c_str()),
          "load_error", "kernel " + config.at("kernel").asString());
    for (Buffer &buffer : buffers)
      check(cuMemAlloc(&buffer.device, buffer.count * sizeof(float)),
            "launch_error", "allocating a buffer");
  }

  /// Uploads the task's inputs and initial output.
  void reset() {
    for (size_t i = 0; i < buffers.size(); ++i) {
      std::vector<float> values = randomValues(buffers[i].count, task, i);
      check(cuMemcpyHtoD(buffers[i].device, values.data(),
                         values.size() * sizeof(float)),
            "launch_error", "uploading inputs");
    }
  }

  void launch(CUstream stream) {
    std::vector<CUdeviceptr> pointers;
    for (size_t index : parameters)
      pointers.push_back(buffers[index].device);
    std::vector<void *> arguments;
    for (CUdeviceptr &pointer : pointers)
      arguments.push_back(&pointer);
    const auto &grid = config.at("grid").asArray();
    const auto &block = config.at("block").asArray();
    check(cuLaunchKernel(function, grid[0].asInt(), grid[1].asInt(),
                         grid[2].asInt(), block[0].asInt(), block[1].asInt(),
                         block[2].asInt(), 0, stream, arguments.data(), nullptr),
          "launch_error", "launching");
  }

  std::vector<float> output() {
    std::vector<float> values(buffers.back().count);
    check(cuMemcpyDtoH(values.data(), buffers.back().device,
                       values.size() * sizeof(float)),
          "crash", "reading the output");
    return values;
  }
};

struct Timing {
  double median = 0, min = 0;
};

template <typename Launch>
Timing time(Launch launch, CUstream stream, const Options &options) {
  CUevent start, stop;
  check(cuEventCreate(&start, CU_EVENT_DEFAULT), "launch_error", "events");
  check(cuEventCreate(&stop, CU_EVENT_DEFAULT), "launch_error", "events");
  for (int i = 0; i < options.warmup; ++i)
    launch();
  check(cuStreamSynchronize(stream), "launch_error", "warm-up");
  std::vector<double> seconds;
  for (int i = 0; i < options.repeats; ++i) {
    check(cuEventRecord(start, stream), "launch_error", "timing");
    launch();
    check(cuEventRecord(stop, stream), "launch_error", "timing");
    check(cuEventSynchronize(stop), "launch_error", "timing");
    float milliseconds = 0;
    check(cuEventElapsedTime(&milliseconds, start, stop), "launch_error",
          "timing");
    seconds.push_back(milliseconds * 1e-3);
  }
  cuEventDestroy(start);
  cuEventDestroy(stop);
  std::sort(seconds.begin(), seconds.end());
  return {seconds[seconds.size() / 2], seconds.front()};
}

struct Gemm {
  int64_t batch = 1, m = 0, n = 0, k = 0;
};

Gemm gemmOf(const minijson::Value &check) {
  const minijson::Value &gemm = check.at("gemm");
  Gemm shape;
  shape.batch = gemm.has("batch") ? gemm.at("batch").asInt() : 1;
  shape.m = gemm.at("m").asInt();
  shape.n = gemm.at("n").asInt();
  shape.k = gemm.at("k").asInt();
  return shape;
}

/// C[b] += A[b] B[b] for row-major A (m x k), B (k x n), C (m x n), as
/// column-major cuBLAS computes it: C^T += B^T A^T.
void cublasGemm(cublasHandle_t handle, const Gemm &shape, CUdeviceptr a,
                CUdeviceptr b, CUdeviceptr c) {
  const float one = 1;
  cublasStatus_t status = cublasSgemmStridedBatched(
      handle, CUBLAS_OP_N, CUBLAS_OP_N, shape.n, shape.m, shape.k, &one,
      reinterpret_cast<const float *>(b), shape.n, shape.k * shape.n,
      reinterpret_cast<const float *>(a), shape.k, shape.m * shape.k, &one,
      reinterpret_cast<float *>(c), shape.n, shape.m * shape.n, shape.batch);
  if (status != CUBLAS_STATUS_SUCCESS)
    throw CandidateError{"launch_error",
                         "cuBLAS: " + std::string(cublasGetStatusString(status))};
}

/// A 2-D convolution as cuDNN sees it: NHWC input of n x input x c, k
/// filters of filter x (c / groups), no padding.
struct Convolution {
  int64_t n = 1, c = 0, k = 0, groups = 1;
  int64_t input[2] = {0, 0}, filter[2] = {0, 0}, stride[2] = {1, 1},
          dilation[2] = {1, 1};
};

Convolution convolutionOf(const minijson::Value &shape) {
  Convolution conv;
  conv.n = shape.at("n").asInt();
  conv.c = shape.at("c").asInt();
  conv.k = shape.at("k").asInt();
  conv.groups = shape.at("groups").asInt();
  for (int i = 0; i < 2; ++i) {
    conv.input[i] = shape.at("input").asArray().at(i).asInt();
    conv.filter[i] = shape.at("filter").asArray().at(i).asInt();
    conv.stride[i] = shape.at("stride").asArray().at(i).asInt();
    conv.dilation[i] = shape.at("dilation").asArray().at(i).asInt();
  }
  return conv;
}

/// Largest difference from `reference`, relative to its largest magnitude.
double relativeError(const std::vector<float> &values,
                     const std::vector<float> &reference) {
  double error = 0, scale = 1;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]))
      return INFINITY;
    error = std::max(error, std::fabs(double(values[i]) - reference[i]));
    scale = std::max(scale, std::fabs(double(reference[i])));
  }
  return error / scale;
}

class Runner {
public:
  explicit Runner(const Options &options) : options(options) {}

  int run() {
    std::vector<std::string> configs = listConfigs();
    if (configs.empty()) {
      std::fprintf(stderr, "tcl-runner: no *.json launch configs in '%s'\n",
                   options.batchDir.c_str());
      return 1;
    }
    if (CUresult result = cuInit(0); result != CUDA_SUCCESS) {
      std::fprintf(stderr, "tcl-runner: cannot initialize CUDA: %s\n",
                   errorName(result).c_str());
      return 1;
    }
    if (!startContext())
      return 1;
    std::FILE *out = options.output == "-" ? stdout
                                           : std::fopen(options.output.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "tcl-runner: cannot write '%s'\n",
                   options.output.c_str());
      return 1;
    }
    char deviceName[256] = {0};
    cuDeviceGetName(deviceName, sizeof deviceName, device);
    size_t done = 0, valid = 0;
    for (const std::string &config : configs) {
      std::string line = runOne(config, deviceName, valid);
      std::fprintf(out, "%s\n", line.c_str());
      std::fflush(out);
      if (++done % 100 == 0 || done == configs.size())
        std::fprintf(stderr, "tcl-runner: %zu/%zu candidates, %zu valid\n",
                     done, configs.size(), valid);
    }
    if (options.baselines) {
      for (const auto &[task, shape] : gemmTasks)
        std::fprintf(out, "%s\n", cublasBaseline(task, shape, deviceName).c_str());
      for (const auto &[task, shape] : convolutionTasks)
        std::fprintf(out, "%s\n", cudnnBaseline(task, shape, deviceName).c_str());
    }
    if (out != stdout)
      std::fclose(out);
    stopContext();
    return 0;
  }

private:
  std::vector<std::string> listConfigs() {
    std::vector<std::string> names;
    if (DIR *dir = opendir(options.batchDir.c_str())) {
      while (dirent *entry = readdir(dir)) {
        std::string name = entry->d_name;
        if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0 &&
            name.rfind("ref-", 0) != 0)
          names.push_back(name);
      }
      closedir(dir);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  bool startContext() {
    CUresult result = cuDeviceGet(&device, options.device);
    if (result == CUDA_SUCCESS)
      result = cuDevicePrimaryCtxRetain(&context, device);
    if (result == CUDA_SUCCESS)
      result = cuCtxSetCurrent(context);
    if (result == CUDA_SUCCESS)
      result = cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
    if (result != CUDA_SUCCESS) {
      std::fprintf(stderr, "tcl-runner: cannot use device %d: %s\n",
                   options.device, errorName(result).c_str());
      return false;
    }
    if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS ||
        cublasSetStream(cublas, reinterpret_cast<cudaStream_t>(stream)) !=
            CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "tcl-runner: cannot start cuBLAS\n");
      return false;
    }
    return true;
  }

  void stopContext() {
    if (cublas)
      cublasDestroy(cublas);
    cublas = nullptr;
    if (stream)
      cuStreamDestroy(stream);
    stream = nullptr;
    cuDevicePrimaryCtxRelease(device);
  }

  /// After a fault the context is unusable: reset the device and start over.
  void recover() {
    stopContext();
    cuDevicePrimaryCtxReset(device);
    startContext();
  }

  std::string runOne(const std::string &configName, const char *deviceName,
                     size_t &valid) {
    std::string name = configName.substr(0, configName.size() - 5);
    std::ostringstream line;
    line << "{\"name\":" << minijson::quote(name)
         << ",\"device\":" << minijson::quote(deviceName);
    try {
      auto candidate = std::make_unique<Candidate>();
      candidate->load(options.batchDir, configName);
      line << ",\"task\":" << minijson::quote(candidate->task);
      if (candidate->config.has("cudnn"))
        convolutionTasks.emplace(candidate->task,
                                 convolutionOf(candidate->config.at("cudnn")));
      double error = checkResult(*candidate);
      Timing timing = time([&] { candidate->launch(stream); }, stream, options);
      line << ",\"status\":\"ok\",\"median_s\":" << timing.median
           << ",\"min_s\":" << timing.min << ",\"error\":" << error << "}";
      ++valid;
      return line.str();
    } catch (const CandidateError &error) {
      line << ",\"status\":" << minijson::quote(error.status)
           << ",\"message\":" << minijson::quote(error.message) << "}";
      if (error.status == "crash")
        recover();
      return line.str();
    }
  }

  /// Runs the candidate once from the task's initial data and compares its
  /// output with cuBLAS or with the reference kernel; returns the error.
  double checkResult(Candidate &candidate) {
    if (!candidate.config.has("check"))
      return 0;
    const minijson::Value &check = candidate.config.at("check");
    candidate.reset();
    candidate.launch(stream);
    ::check(cuStreamSynchronize(stream), "launch_error", "running");
    std::vector<float> values = candidate.output();
    std::vector<float> reference;
    if (check.has("gemm")) {
      Gemm shape = gemmOf(check);
      gemmTasks.emplace(candidate.task, shape);
      candidate.reset();
      cublasGemm(cublas, shape, candidate.buffers[0].device,
                 candidate.buffers[1].device, candidate.buffers.back().device);
      ::check(cuStreamSynchronize(stream), "launch_error", "cuBLAS");
      reference = candidate.output();
    } else if (check.has("reference")) {
      Candidate oracle;
      oracle.load(options.batchDir, check.at("reference").asString());
      oracle.task = candidate.task;
      oracle.reset();
      oracle.launch(stream);
      ::check(cuStreamSynchronize(stream), "launch_error", "reference");
      reference = oracle.output();
    } else {
      return 0;
    }
    if (reference.size() != values.size())
      throw CandidateError{"bad_config", "reference output of another size"};
    double error = relativeError(values, reference);
    if (!(error <= 1e-3))
      throw CandidateError{"wrong_result",
                           "relative error " + std::to_string(error)};
    return error;
  }

  std::string cublasBaseline(const std::string &task, const Gemm &shape,
                             const char *deviceName) {
    std::ostringstream line;
    line << "{\"name\":" << minijson::quote("cublas-" + task)
         << ",\"device\":" << minijson::quote(deviceName)
         << ",\"task\":" << minijson::quote(task) << ",\"baseline\":\"cublas\"";
    CUdeviceptr a = 0, b = 0, c = 0;
    try {
      check(cuMemAlloc(&a, shape.batch * shape.m * shape.k * sizeof(float)),
            "launch_error", "allocating");
      check(cuMemAlloc(&b, shape.batch * shape.k * shape.n * sizeof(float)),
            "launch_error", "allocating");
      check(cuMemAlloc(&c, shape.batch * shape.m * shape.n * sizeof(float)),
            "launch_error", "allocating");
      Timing timing = time([&] { cublasGemm(cublas, shape, a, b, c); }, stream,
                           options);
      line << ",\"status\":\"ok\",\"median_s\":" << timing.median
           << ",\"min_s\":" << timing.min << "}";
    } catch (const CandidateError &error) {
      line << ",\"status\":" << minijson::quote(error.status)
           << ",\"message\":" << minijson::quote(error.message) << "}";
    }
    for (CUdeviceptr pointer : {a, b, c})
      if (pointer)
        cuMemFree(pointer);
    return line.str();
  }

  /// cuDNN's fastest algorithm for `conv` (cudnnFind), in full FP32
  /// (CUDNN_FMA_MATH: no TF32, the precision tcl's kernels compute in),
  /// timed like a candidate. Without cuDNN in the build, says so.
  std::string cudnnBaseline(const std::string &task, const Convolution &conv,
                            const char *deviceName) {
    std::ostringstream line;
    line << "{\"name\":" << minijson::quote("cudnn-" + task)
         << ",\"device\":" << minijson::quote(deviceName)
         << ",\"task\":" << minijson::quote(task)
         << ",\"baseline\":\"cudnn\",\"primitive\":\"convolution\"";
#ifdef TCL_RUNNER_CUDNN
    cudnnHandle_t handle = nullptr;
    cudnnTensorDescriptor_t input = nullptr, output = nullptr;
    cudnnFilterDescriptor_t filter = nullptr;
    cudnnConvolutionDescriptor_t descriptor = nullptr;
    CUdeviceptr x = 0, w = 0, y = 0, workspace = 0;
    auto checkDnn = [](cudnnStatus_t status, const char *what) {
      if (status != CUDNN_STATUS_SUCCESS)
        throw CandidateError{"launch_error", std::string("cuDNN ") + what +
                                                 ": " + cudnnGetErrorString(status)};
    };
    try {
      checkDnn(cudnnCreate(&handle), "handle");
      checkDnn(cudnnSetStream(handle, reinterpret_cast<cudaStream_t>(stream)),
               "stream");
      checkDnn(cudnnCreateTensorDescriptor(&input), "descriptor");
      checkDnn(cudnnCreateTensorDescriptor(&output), "descriptor");
      checkDnn(cudnnCreateFilterDescriptor(&filter), "descriptor");
      checkDnn(cudnnCreateConvolutionDescriptor(&descriptor), "descriptor");
      checkDnn(cudnnSetTensor4dDescriptor(input, CUDNN_TENSOR_NHWC,
                                          CUDNN_DATA_FLOAT, conv.n, conv.c,
                                          conv.input[0], conv.input[1]),
               "input");
      checkDnn(cudnnSetFilter4dDescriptor(filter, CUDNN_DATA_FLOAT,
                                          CUDNN_TENSOR_NHWC, conv.k,
                                          conv.c / conv.groups, conv.filter[0],
                                          conv.filter[1]),
               "filter");
      checkDnn(cudnnSetConvolution2dDescriptor(
                   descriptor, 0, 0, conv.stride[0], conv.stride[1],
                   conv.dilation[0], conv.dilation[1], CUDNN_CROSS_CORRELATION,
                   CUDNN_DATA_FLOAT),
               "convolution");
      checkDnn(cudnnSetConvolutionGroupCount(descriptor, conv.groups), "groups");
      checkDnn(cudnnSetConvolutionMathType(descriptor, CUDNN_FMA_MATH), "math");
      int n = 0, k = 0, h = 0, wOut = 0;
      checkDnn(cudnnGetConvolution2dForwardOutputDim(descriptor, input, filter,
                                                     &n, &k, &h, &wOut),
               "output shape");
      checkDnn(cudnnSetTensor4dDescriptor(output, CUDNN_TENSOR_NHWC,
                                          CUDNN_DATA_FLOAT, n, k, h, wOut),
               "output");
      auto allocate = [](CUdeviceptr &pointer, size_t bytes) {
        check(cuMemAlloc(&pointer, std::max<size_t>(bytes, 4)), "launch_error",
              "allocating");
      };
      allocate(x, sizeof(float) * conv.n * conv.c * conv.input[0] * conv.input[1]);
      allocate(w, sizeof(float) * conv.k * (conv.c / conv.groups) *
                      conv.filter[0] * conv.filter[1]);
      allocate(y, sizeof(float) * n * k * h * wOut);
      cudnnConvolutionFwdAlgoPerf_t found[8];
      int count = 0;
      checkDnn(cudnnFindConvolutionForwardAlgorithm(handle, input, filter,
                                                    descriptor, output, 8,
                                                    &count, found),
               "algorithm search");
      const cudnnConvolutionFwdAlgoPerf_t *best = nullptr;
      for (int i = 0; i < count && !best; ++i)
        if (found[i].status == CUDNN_STATUS_SUCCESS)
          best = &found[i];
      if (!best)
        throw CandidateError{"launch_error", "cuDNN has no algorithm"};
      allocate(workspace, best->memory);
      const float one = 1, zero = 0;
      Timing timing = time(
          [&] {
            checkDnn(cudnnConvolutionForward(
                         handle, &one, input, reinterpret_cast<void *>(x),
                         filter, reinterpret_cast<void *>(w), descriptor,
                         best->algo, reinterpret_cast<void *>(workspace),
                         best->memory, &zero, output,
                         reinterpret_cast<void *>(y)),
                     "forward");
          },
          stream, options);
      line << ",\"status\":\"ok\",\"median_s\":" << timing.median
           << ",\"min_s\":" << timing.min
           << ",\"algorithm\":" << static_cast<int>(best->algo) << "}";
    } catch (const CandidateError &error) {
      line << ",\"status\":" << minijson::quote(error.status)
           << ",\"message\":" << minijson::quote(error.message) << "}";
    }
    for (CUdeviceptr pointer : {x, w, y, workspace})
      if (pointer)
        cuMemFree(pointer);
    if (descriptor)
      cudnnDestroyConvolutionDescriptor(descriptor);
    if (filter)
      cudnnDestroyFilterDescriptor(filter);
    for (cudnnTensorDescriptor_t tensor : {input, output})
      if (tensor)
        cudnnDestroyTensorDescriptor(tensor);
    if (handle)
      cudnnDestroy(handle);
#else
    line << ",\"status\":\"launch_error\",\"message\":\"tcl-runner was "
            "built without cuDNN (-DTCL_RUNNER_CUDNN -lcudnn)\"}";
#endif
    return line.str();
  }

  const Options &options;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  cublasHandle_t cublas = nullptr;
  /// The tasks --baselines times with cuBLAS and cuDNN, by task key.
  std::map<std::string, Gemm> gemmTasks;
  std::map<std::string, Convolution> convolutionTasks;
};

void usage() {
  std::fprintf(stderr,
               "usage: tcl-runner BATCH_DIR [-o RESULTS.jsonl] [--warmup N] "
               "[--repeats N] [--device I] [--baselines]\n"
               "Runs every <name>.json launch config in BATCH_DIR (with its "
               "PTX or cubin) on the GPU, checks it, and writes one JSON line "
               "per candidate; --baselines adds cuBLAS timings of the GEMM "
               "tasks and cuDNN timings of the convolutions.\n");
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "tcl-runner: %s needs a value\n", arg.c_str());
        std::exit(1);
      }
      return argv[++i];
    };
    auto number = [&](const char *text) {
      char *end = nullptr;
      long value = std::strtol(text, &end, 10);
      if (!*text || *end || value < 0) {
        std::fprintf(stderr, "tcl-runner: %s expects a count, got '%s'\n",
                     arg.c_str(), text);
        std::exit(1);
      }
      return static_cast<int>(value);
    };
    if (arg == "-h" || arg == "--help") {
      usage();
      return 0;
    } else if (arg == "-o") {
      options.output = next();
    } else if (arg == "--warmup") {
      options.warmup = number(next());
    } else if (arg == "--repeats") {
      options.repeats = std::max(1, number(next()));
    } else if (arg == "--device") {
      options.device = number(next());
    } else if (arg == "--baselines") {
      options.baselines = true;
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "tcl-runner: unknown option '%s'\n", arg.c_str());
      usage();
      return 1;
    } else if (options.batchDir.empty()) {
      options.batchDir = arg;
    } else {
      std::fprintf(stderr, "tcl-runner: more than one batch directory\n");
      return 1;
    }
  }
  if (options.batchDir.empty()) {
    usage();
    return 1;
  }
  return Runner(options).run();
}
