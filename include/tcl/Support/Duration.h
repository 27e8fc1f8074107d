//===- Duration.h - Durations as progress lines show them -------*- C++ -*-===//

#ifndef TCL_SUPPORT_DURATION_H
#define TCL_SUPPORT_DURATION_H

#include <string>

namespace tcl {

/// "1h05m" or "3m07s"; "?" for a negative, NaN or absurd (> 100 days)
/// duration, such as an ETA at a rate of zero.
std::string formatDuration(double seconds);

} // namespace tcl

#endif // TCL_SUPPORT_DURATION_H
