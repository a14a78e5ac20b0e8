# Turns one file into a C++ source that holds its bytes: run at build time by report/CMakeLists.txt
# as `cmake -DINPUT=<file> -DOUTPUT=<file.cpp> -DFUNCTION=<name> -P embed_asset.cmake`. The source
# defines `std::string_view linkcast::report::assets::<FUNCTION>()` (declared in report/assets.hpp),
# the file's bytes exactly as they are, every one written as a \x escape so that no byte of the file
# can end or change the literal.
foreach(arg INPUT OUTPUT FUNCTION)
  if(NOT DEFINED ${arg})
    message(FATAL_ERROR "embed_asset.cmake: -D${arg}=... is required")
  endif()
endforeach()

file(READ "${INPUT}" hex HEX)
file(SIZE "${INPUT}" size)
# 32 bytes (64 hex digits) a line, each byte as \xNN, each line one string literal.
string(REPEAT "[0-9a-f]" 64 line_of_hex)
string(REGEX REPLACE "(${line_of_hex})" "\\1\n" hex "${hex}")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" escaped "${hex}")
string(REGEX REPLACE "([^\n]+)" "    \"\\1\"" literals "${escaped}")
if(size EQUAL 0)
  set(literals "    \"\"")
endif()
string(STRIP "${literals}" literals)

cmake_path(GET INPUT FILENAME name)
set(text "// Generated at build time from ${name} by report/embed_asset.cmake; edit the asset, not this file.
#include \"report/assets.hpp\"

namespace linkcast::report::assets {

namespace {
constexpr char kBytes[] =
    ${literals};
static_assert(sizeof(kBytes) == ${size} + 1, \"every byte of ${name}\");
}  // namespace

std::string_view ${FUNCTION}() { return {kBytes, sizeof(kBytes) - 1}; }

}  // namespace linkcast::report::assets
")
file(WRITE "${OUTPUT}" "${text}")
