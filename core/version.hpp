// linkcast's version, from CMake's project(VERSION) (the one place it is written).
#pragma once

#include <string_view>

namespace linkcast {

/// "0.1.0".
std::string_view version();

}  // namespace linkcast
