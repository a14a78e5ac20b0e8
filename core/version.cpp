#include "core/version.hpp"

namespace linkcast {

std::string_view version() { return LINKCAST_VERSION; }

}  // namespace linkcast
