//===- Workload.cpp - oneDNN primitives that compute one task -------------===//

#include "Workload.h"

using namespace tcl;

void Workload::add(llvm::StringRef name, dnnl::primitive primitive,
                   std::unordered_map<int, dnnl::memory> arguments) {
  if (!primitiveName.empty())
    primitiveName += ", ";
  primitiveName += name.str();
  steps.push_back({std::move(primitive), std::move(arguments)});
}

void Workload::execute(dnnl::stream &stream) {
  for (Step &step : steps)
    step.primitive.execute(stream, step.arguments);
  stream.wait();
}

dnnl::memory tcl::filledMemory(const dnnl::memory::desc &desc,
                               const dnnl::engine &engine) {
  dnnl::memory memory(desc, engine);
  float *data = static_cast<float *>(memory.get_data_handle());
  size_t count = desc.get_size() / sizeof(float);
  for (size_t i = 0; i < count; ++i)
    data[i] = static_cast<float>((i * 2654435761u) % 1000) / 500.0f - 1.0f;
  return memory;
}
