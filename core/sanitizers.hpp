// Which sanitizer this build runs under (GCC says so by macros, clang by __has_feature). Their
// allocators ignore glibc's tunables (core/huge_pages.cpp), and AddressSanitizer runs several
// times slower (tests that check only the accuracy of long runs leave them to the release build).
#pragma once

namespace linkcast {

#if defined(__has_feature)
#define LINKCAST_HAS_FEATURE(x) __has_feature(x)
#else
#define LINKCAST_HAS_FEATURE(x) 0
#endif

#if defined(__SANITIZE_ADDRESS__) || LINKCAST_HAS_FEATURE(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#if defined(__SANITIZE_THREAD__) || LINKCAST_HAS_FEATURE(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif
#undef LINKCAST_HAS_FEATURE

}  // namespace linkcast
