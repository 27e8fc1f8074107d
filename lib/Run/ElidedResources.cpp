//===- ElidedResources.cpp - Weights whose values a file leaves out -------===//

#include "tcl/Run/ElidedResources.h"
#include "tcl/Run/HostTensor.h"
#include "tcl/Run/InputDomain.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace tcl;

/// The attributes of `op` that are dense resources without data.
static SmallVector<NamedAttribute> elidedAttributes(Operation *op) {
  SmallVector<NamedAttribute> elided;
  for (NamedAttribute attribute : op->getAttrs())
    if (auto resource =
            dyn_cast<DenseResourceElementsAttr>(attribute.getValue()))
      if (!resource.getRawHandle().getBlob())
        elided.push_back(attribute);
  return elided;
}

LogicalResult tcl::verifyNoElidedResources(ModuleOp module) {
  bool any = false;
  module.walk([&](Operation *op) {
    for (NamedAttribute attribute : elidedAttributes(op)) {
      auto resource = cast<DenseResourceElementsAttr>(attribute.getValue());
      // At the op's location, not on it: printing a model's constant op
      // would print its type and nothing useful.
      emitError(op->getLoc())
          << "'" << op->getName() << "' holds elided values ("
          << "dense_resource<" << resource.getRawHandle().getKey()
          << "> of type " << resource.getType()
          << " has no data in the file); tcl-run --fill-elided=SEED, or "
             "--tcl-tune=\"fill-elided=SEED\", fills elided weights with "
             "seeded random values";
      any = true;
    }
  });
  return failure(any);
}

/// Random values of `type` for the weight at `value` (null if the op has no
/// result to analyse), or a null attribute for unsupported element types.
static DenseElementsAttr randomValues(ShapedType type, Value value,
                                      uint64_t seed) {
  std::string elementName;
  llvm::raw_string_ostream(elementName) << type.getElementType();
  llvm::Expected<ElementKind> kind = parseElementKind(elementName);
  if (!kind) {
    llvm::consumeError(kind.takeError());
    return {};
  }
  InputDomain domain = value ? inferInputDomain(value) : InputDomain();
  // A weight no contraction reads directly (torch-mlir transposes Linear
  // weights in a generic) is scaled by its layout: PyTorch's weights put
  // the output channels first and the fan-in after them.
  if (!domain.positive && domain.scale == 1.0 && type.getRank() >= 2 &&
      type.getNumElements() > 0) {
    double fanIn = double(type.getNumElements()) / type.getDimSize(0);
    domain.scale = std::sqrt(3.0 / fanIn);
  }
  HostTensor values(*kind, type.getShape());
  values.fillRandom(seed, domain);
  ArrayRef<char> bytes(static_cast<const char *>(values.data()),
                       values.numElements() * elementBytes(*kind));
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

unsigned tcl::fillElidedResources(ModuleOp module, uint64_t seed) {
  unsigned filled = 0;
  module.walk([&](Operation *op) {
    for (NamedAttribute attribute : elidedAttributes(op)) {
      auto resource = cast<DenseResourceElementsAttr>(attribute.getValue());
      Value value = op->getNumResults() == 1 ? op->getResult(0) : Value();
      // Each weight its own stream: filling one more leaves the others.
      DenseElementsAttr values =
          randomValues(resource.getType(), value, seed * 1000003u + filled);
      if (!values)
        continue;
      op->setAttr(attribute.getName(), values);
      ++filled;
    }
  });
  return filled;
}
