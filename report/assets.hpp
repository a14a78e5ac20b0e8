// The page's stylesheet and script: report/assets/style.css and report/assets/report.js, embedded
// in the library at build time (report/embed_asset.cmake), byte for byte.
#pragma once

#include <string_view>

namespace linkcast::report::assets {

/// report/assets/style.css: the page's styles (inlined in its <style>).
std::string_view style_css();
/// report/assets/report.js: the page's script (inlined in its <script>): tabs, the colour toggle,
/// sortable tables, the chart sums the browser test reads, and the render time. It only reads
/// the page (no network, no storage), and the page keeps working without it: every value is
/// also in a table.
std::string_view report_js();

}  // namespace linkcast::report::assets
