// UTF-8 checks for text that reaches JSON and HTML output: names read from traces (a database
// or a hand-edited CSV may hold any bytes), node and study files.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace linkcast {

/// The byte offset of the first byte of `s` that does not start a valid UTF-8 sequence (overlong
/// forms, surrogates and code points above U+10FFFF are invalid), or nullopt when all of it is valid.
[[nodiscard]] std::optional<std::size_t> invalid_utf8_at(std::string_view s);
[[nodiscard]] inline bool is_valid_utf8(std::string_view s) { return !invalid_utf8_at(s); }
/// `s` with every invalid UTF-8 sequence replaced by U+FFFD (as JSON and HTML writers need).
[[nodiscard]] std::string valid_utf8(std::string_view s);

/// The UTF-8 byte-order mark some editors write at the start of a text file (Excel's CSV, Windows
/// Notepad).
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

/// A text file's bytes as UTF-8 text: UTF-16 text with its byte-order mark (what Windows
/// PowerShell's `>` writes) converted, a UTF-8 byte-order mark dropped (InputFile drops that one
/// already from what it reads), other bytes as they are.
/// nullopt for UTF-16 that is not well formed (an unpaired surrogate, an odd length).
[[nodiscard]] std::optional<std::string> utf8_text(std::string bytes);

}  // namespace linkcast
