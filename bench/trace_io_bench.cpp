// Trace ingest (Kineto JSON target >= 100 MB/s, issue 17's 400 MB/s) and the linkcast CSV reader
// (issue 17: >= 1 GB/s plain, gzip'd at zlib's pace), on generated text shaped like the real
// files (Kineto: PyTorch 2.11's event layout with CPU-op noise around the GPU memcpy/memset/NCCL
// events), each beside the pace of reading the text without interpreting it.
#include <benchmark/benchmark.h>
#include <simdjson.h>
#include <unistd.h>
#include <zlib.h>

#include <fmt/format.h>

#include <array>
#include <random>
#include <vector>

#include "trace/csv.hpp"
#include "trace/kineto.hpp"

namespace {

/// `shapes`: the CPU operators recorded as with `record_shapes=True` (PyTorch 2's args: aten::
/// operators with their "Concrete Inputs", "Input type", "Input Strides" and "Input Dims", beside
/// autograd wrappers without them; 3 of 8 events and about half the bytes, where
/// tests/data/real/h100-1gpu-apps/app_gpt_mixed.json.gz has 51% and 63%), which the reader scans
/// for their tensors' bytes (trace/kineto_shapes.cpp).
std::string kineto_text(std::size_t events, bool shapes = false) {
  std::string s = "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"}],\n"
                  " \"traceEvents\": [\n";
  std::mt19937_64 rng(7);
  enum Kind { op, shaped_op, memcpy, flow, kernel };
  // Eight events at a time: without shapes two of each kind but shaped operators; with them,
  // three shaped operators in place of an operator, a copy and a flow arrow.
  constexpr std::array<Kind, 8> kPlain = {op, memcpy, flow, kernel, op, memcpy, flow, kernel};
  constexpr std::array<Kind, 8> kShaped = {shaped_op, memcpy, shaped_op, kernel, op, shaped_op, flow, kernel};
  for (std::size_t i = 0; i < events; ++i) {
    const double ts = 1.7e12 + static_cast<double>(i) * 3.5;
    switch ((shapes ? kShaped : kPlain)[i % 8]) {
      case shaped_op:
        fmt::format_to(std::back_inserter(s),
                       "  {{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::nll_loss_backward\", \"pid\": 123, "
                       "\"tid\": 123, \"ts\": {:.3f}, \"dur\": 94.2, \"args\": {{\"External id\": {},\"Record function id\": 0, "
                       "\"Concrete Inputs\": [\"\", \"\", \"\", \"\", \"1\", \"-100\", \"\"], \"Input type\": [\"float\", "
                       "\"float\", \"long int\", \"\", \"Scalar\", \"Scalar\", \"float\"], \"Input Strides\": [[], [{}, 1], "
                       "[1], [], [], [], []], \"Input Dims\": [[], [8192, {}], [8192], [], [], [], []], \"Ev Idx\": {}}}}},\n",
                       ts, i, 1u << (rng() % 16), 1u << (rng() % 16), i);
        break;
      case op:
        fmt::format_to(std::back_inserter(s),
                       "  {{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::copy_\", \"pid\": 123, \"tid\": 123, "
                       "\"ts\": {:.3f}, \"dur\": 12.1, \"args\": {{\"External id\": {}, \"Record function id\": 0, "
                       "\"Sequence number\": {}, \"Fwd thread id\": 0, \"Ev Idx\": {}}}}},\n",
                       ts, i, i, i);
        break;
      case memcpy:
        fmt::format_to(std::back_inserter(s),
                       "  {{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pinned -> Device)\", "
                       "\"pid\": 0, \"tid\": 7, \"ts\": {:.3f}, \"dur\": 4.5, \"args\": {{\"External id\": {}, "
                       "\"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": {}, \"bytes\": {}, "
                       "\"memory bandwidth (GB/s)\": 1.2}}}},\n",
                       ts, i, i, 1u << (rng() % 28));
        break;
      case flow:
        fmt::format_to(std::back_inserter(s),
                       "  {{\"ph\": \"f\", \"id\": {}, \"pid\": 0, \"tid\": 7, \"ts\": {:.3f}, \"cat\": \"ac2g\", "
                       "\"name\": \"ac2g\", \"bp\": \"e\"}},\n",
                       i, ts);
        break;
      case kernel:
        fmt::format_to(std::back_inserter(s),
                       "  {{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)\", "
                       "\"pid\": 0, \"tid\": 17, \"ts\": {:.3f}, \"dur\": 78.8, \"args\": {{\"device\": 0, "
                       "\"stream\": 17, \"grid\": [24, 1, 1], \"block\": [544, 1, 1], \"Collective name\": "
                       "\"allreduce\", \"In msg nelems\": 4216842, \"Out msg nelems\": 4216842, \"Group size\": 2, "
                       "\"dtype\": \"Float\", \"Process Group Name\": \"0\", \"Process Group Ranks\": \"[0, 1]\"}}}},\n",
                       ts);
    }
  }
  s += "  {\"ph\": \"i\", \"name\": \"end\", \"ts\": 0}\n], \"traceName\": \"bench\"}\n";
  return s;
}

void BM_KinetoIngest(benchmark::State& state) {
  const std::string text = kineto_text(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(linkcast::trace::parse_kineto(text, "bench.json"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_KinetoIngest)->Arg(200000)->Unit(benchmark::kMillisecond);

/// The same with the CPU operators' shapes recorded (record_shapes=True), as training traces are.
void BM_KinetoIngestShapes(benchmark::State& state) {
  const std::string text = kineto_text(static_cast<std::size_t>(state.range(0)), true);
  for (auto _ : state) benchmark::DoNotOptimize(linkcast::trace::parse_kineto(text, "bench.json"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_KinetoIngestShapes)->Arg(200000)->Unit(benchmark::kMillisecond);

/// The ceiling for reading the same text: simdjson's DOM parse of the whole document and a walk
/// over its events touching each one's "ph" (what any Kineto reader must at least do).
void BM_KinetoBareSimdjsonScan(benchmark::State& state) {
  const std::string text = kineto_text(static_cast<std::size_t>(state.range(0)));
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(text);
  std::size_t events = 0;
  for (auto _ : state) {
    simdjson::dom::element doc;
    if (parser.parse(padded).get(doc)) state.SkipWithError("not JSON");
    for (simdjson::dom::element e : doc["traceEvents"].get_array()) events += e["ph"].get_string().value().size();
  }
  benchmark::DoNotOptimize(events);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_KinetoBareSimdjsonScan)->Arg(200000)->Unit(benchmark::kMillisecond);

std::string csv_text(std::int64_t lines) {
  std::string text = "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream\n";
  for (std::int64_t i = 0; i < lines; ++i)
    fmt::format_to(std::back_inserter(text), "copy,cpu0,gpu{},{},pinned,device,{},{},{}\n", i % 8, 1 << (i % 28),
                   i * 1000, 500 + i % 7000, i % 4);
  return text;
}

void BM_CsvIngest(benchmark::State& state) {
  const std::string text = csv_text(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(linkcast::trace::parse_csv_trace(text, "bench.csv"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
// Wall time: the file is read ahead on a second thread (core/read_ahead.hpp).
BENCHMARK(BM_CsvIngest)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

/// The same lines gzip'd in a file: read_csv_trace (inflate and parse, bytes per second of the
/// text) against zlib inflating the file alone (the pace it cannot beat).
std::string gzip_file_of(const std::string& text) {
  const std::string path = fmt::format("/tmp/linkcast_bench_{}.csv.gz", ::getpid());
  gzFile f = gzopen(path.c_str(), "wb6");
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  return path;
}

void BM_CsvIngestGzip(benchmark::State& state) {
  const std::string text = csv_text(state.range(0));
  const std::string path = gzip_file_of(text);
  for (auto _ : state) benchmark::DoNotOptimize(linkcast::trace::read_csv_trace(path));
  ::unlink(path.c_str());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_CsvIngestGzip)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ZlibInflateAlone(benchmark::State& state) {
  const std::string text = csv_text(state.range(0));
  const std::string path = gzip_file_of(text);
  std::vector<char> buffer(8u << 20);
  for (auto _ : state) {
    gzFile f = gzopen(path.c_str(), "rb");
    std::size_t total = 0;
    for (int got; (got = gzread(f, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0;) total += static_cast<std::size_t>(got);
    gzclose(f);
    benchmark::DoNotOptimize(total);
  }
  ::unlink(path.c_str());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ZlibInflateAlone)->Arg(1000000)->Unit(benchmark::kMillisecond);

}  // namespace
