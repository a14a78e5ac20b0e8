// linkcast_validate_simgrid: the same links and flows in SimGrid and in linkcast's flow network,
// completion times compared flow by flow, wall times of both recorded.
//
// SimGrid runs its CM02 network model (max-min fair sharing, SimGrid's LMM) with cross-traffic
// off, TCP-gamma (the window bound) disabled, zero link latency and its precisions tightened
// to 1e-9, so both tools solve the same problem: every flow a comm between two hosts over an
// explicit list of links. SimGrid allows one engine per process, so `--scenario all` runs each
// scenario in a process of its own and prints the summary table.
//
// Scenarios:
//   shared-bottleneck  8 flows of 1..8 GiB on one 50 GB/s link
//   parking-lot        a flow across 4 links of 10..40 GB/s, one cross flow per link
//   capped             parking-lot where two flows are held by their own rate (Comm::set_rate)
//   fan-out, fan-in    DGX-1: gpu0 to/from every other GPU and both CPUs, sizes 64 MiB..1 GiB
//   random-dgx1        DGX-1: --flows flows between random CPU/GPU endpoints, all started at 0
//   staggered-dgx1     the same, started over time (exponential inter-arrival)
// Usage: linkcast_validate_simgrid [--scenario NAME|all] [--flows N] [--seed S] [--node FILE]
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "sim/engine.hpp"
#include "sim/network.hpp"
#include "sim/solver.hpp"
#include "topology/loader.hpp"
#include "topology/routing.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Flow {
  std::vector<int> links;  // resource indices
  std::uint64_t bytes = 0;
  double start_s = 0;
  double cap_gbps = 0;  // 0: none
};

struct Scenario {
  std::string name;
  std::vector<double> capacity_gbps;  // per resource
  std::vector<Flow> flows;
};

std::string g_node_file = LINKCAST_SOURCE_DIR "/configs/dgx1-v100.yaml";

/// DGX-1 resources (one per link direction) and the routes between its CPUs and GPUs.
struct Dgx1 {
  linkcast::topology::Node node;
  linkcast::topology::Routes routes;
  std::vector<int> endpoints;  // cpus and gpus
  Dgx1() : node(linkcast::topology::load_node(g_node_file)), routes(node) {
    for (int c : node.cpus()) endpoints.push_back(c);
    for (int g : node.gpus()) endpoints.push_back(g);
  }
  std::vector<double> capacities() const {
    std::vector<double> c;
    for (const auto& l : node.links) {
      c.push_back(l.spec.gbps());
      c.push_back(l.spec.gbps());
    }
    return c;
  }
  std::vector<int> route(int a, int b) const {
    std::vector<int> r;
    for (const auto& dl : routes.path(a, b).links) r.push_back(dl.link * 2 + (dl.forward ? 0 : 1));
    return r;
  }
};

Scenario make_scenario(const std::string& name, std::size_t n, std::uint64_t seed) {
  Scenario s;
  s.name = name;
  std::mt19937_64 rng(seed);
  const std::uint64_t GiB = 1ull << 30, MiB = 1ull << 20;
  if (name == "shared-bottleneck") {
    s.capacity_gbps = {50};
    for (std::uint64_t k = 1; k <= 8; ++k) s.flows.push_back({{0}, k * GiB, 0, 0});
  } else if (name == "parking-lot" || name == "capped") {
    s.capacity_gbps = {10, 20, 30, 40};
    s.flows.push_back({{0, 1, 2, 3}, 4 * GiB, 0, 0});
    for (int l = 0; l < 4; ++l) s.flows.push_back({{l}, static_cast<std::uint64_t>(l + 1) * GiB, 0, 0});
    if (name == "capped") {
      s.flows[2].cap_gbps = 3;   // the cross flow on the 20 GB/s link
      s.flows[4].cap_gbps = 12;  // the one on the 40 GB/s link
    }
  } else if (name == "fan-out" || name == "fan-in" || name == "random-dgx1" || name == "staggered-dgx1") {
    static const Dgx1 dgx1;
    s.capacity_gbps = dgx1.capacities();
    std::uniform_real_distribution<double> log_size(std::log(64.0 * MiB), std::log(1.0 * GiB));
    const int gpu0 = dgx1.node.find("gpu0");
    if (name == "fan-out" || name == "fan-in") {
      for (int e : dgx1.endpoints) {
        if (e == gpu0) continue;
        const auto bytes = static_cast<std::uint64_t>(std::exp(log_size(rng)));
        s.flows.push_back({name == "fan-out" ? dgx1.route(gpu0, e) : dgx1.route(e, gpu0), bytes, 0, 0});
      }
    } else {
      std::uniform_int_distribution<std::size_t> pick(0, dgx1.endpoints.size() - 1);
      std::uniform_real_distribution<double> log_small(std::log(1.0 * MiB), std::log(1.0 * GiB));
      std::exponential_distribution<double> gap(1.0 / 20e-6);  // a flow every 20 us on average
      double t = 0;
      for (std::size_t i = 0; i < n; ++i) {
        int a, b;
        do {
          a = dgx1.endpoints[pick(rng)];
          b = dgx1.endpoints[pick(rng)];
        } while (a == b || (dgx1.node.endpoints[static_cast<std::size_t>(a)].kind == linkcast::topology::EndpointKind::cpu &&
                            dgx1.node.endpoints[static_cast<std::size_t>(b)].kind == linkcast::topology::EndpointKind::cpu));
        if (name == "staggered-dgx1") t += gap(rng);
        s.flows.push_back({dgx1.route(a, b), static_cast<std::uint64_t>(std::exp(log_small(rng))), t, 0});
      }
    }
  } else {
    std::fprintf(stderr, "unknown scenario '%s'\n", name.c_str());
    std::exit(2);
  }
  return s;
}

/// linkcast: each flow a task of the event loop (released at its start, no L + O).
std::vector<double> run_linkcast(const Scenario& s, double* wall_s) {
  const auto t0 = Clock::now();
  const auto solver = linkcast::sim::make_solver("maxmin");
  linkcast::sim::FlowNetwork net(*solver);
  for (double c : s.capacity_gbps) net.add_resource(c);
  std::map<std::vector<int>, linkcast::sim::RouteId> routes;
  linkcast::sim::Engine engine(net);
  std::vector<linkcast::sim::TaskId> tasks;
  for (const Flow& f : s.flows) {
    auto it = routes.find(f.links);
    if (it == routes.end()) {
      const std::vector<linkcast::sim::ResourceId> hops(f.links.begin(), f.links.end());
      it = routes.emplace(f.links, net.add_route(hops)).first;
    }
    const double cap = f.cap_gbps > 0 ? f.cap_gbps : linkcast::sim::kNoCap;
    tasks.push_back(engine.add_transfer(it->second, static_cast<double>(f.bytes), {}, cap, 0));
    engine.set_release(tasks.back(), f.start_s * 1e9);
  }
  engine.run();
  std::vector<double> end;
  for (auto t : tasks) end.push_back(engine.timing(t).end_ns * 1e-9);
  *wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  return end;
}

/// SimGrid: one host pair per distinct route, every flow a Comm::sendto between them.
std::vector<double> run_simgrid(const Scenario& s, int* argc, char** argv, double* wall_s) {
  const auto t0 = Clock::now();
  simgrid::s4u::Engine engine(argc, argv);
  simgrid::s4u::Engine::set_config("network/model:CM02");
  simgrid::s4u::Engine::set_config("network/crosstraffic:0");
  simgrid::s4u::Engine::set_config("network/TCP-gamma:0");
  simgrid::s4u::Engine::set_config("maxmin/precision:1e-9");
  simgrid::s4u::Engine::set_config("surf/precision:1e-9");
  auto* zone = simgrid::s4u::create_full_zone("node");
  std::vector<simgrid::s4u::Link*> links;
  for (std::size_t r = 0; r < s.capacity_gbps.size(); ++r) {
    auto* l = zone->create_link("l" + std::to_string(r), s.capacity_gbps[r] * 1e9);
    l->set_latency(0)->set_sharing_policy(simgrid::s4u::Link::SharingPolicy::SHARED)->seal();
    links.push_back(l);
  }
  auto* driver = zone->create_host("driver", 1e9);
  std::map<std::vector<int>, std::pair<simgrid::s4u::Host*, simgrid::s4u::Host*>> pairs;
  std::vector<std::pair<simgrid::s4u::Host*, simgrid::s4u::Host*>> ends;
  for (const Flow& f : s.flows) {
    auto it = pairs.find(f.links);
    if (it == pairs.end()) {
      const std::string k = std::to_string(pairs.size());
      auto* a = zone->create_host("src" + k, 1e9);
      auto* b = zone->create_host("dst" + k, 1e9);
      std::vector<simgrid::s4u::LinkInRoute> route;
      for (int l : f.links) route.emplace_back(links[static_cast<std::size_t>(l)]);
      zone->add_route(a->get_netpoint(), b->get_netpoint(), nullptr, nullptr, route, false);
      it = pairs.emplace(f.links, std::make_pair(a, b)).first;
    }
    ends.push_back(it->second);
  }
  zone->seal();

  // One actor per flow: it waits until the flow's start, sends and records when the comm ends.
  std::vector<double> end(s.flows.size(), -1);
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    simgrid::s4u::Actor::create("f" + std::to_string(i), s.flows[i].cap_gbps > 0 ? ends[i].first : driver, [&, i] {
      const Flow& f = s.flows[i];
      if (f.start_s > 0) simgrid::s4u::this_actor::sleep_until(f.start_s);
      if (f.cap_gbps > 0) {
        // A rate bound applies to mailbox comms (SimGrid 3.32 ignores it on sendto): a put on
        // the source host, a get by a receiver actor on the destination.
        auto* mbox = simgrid::s4u::Mailbox::by_name("m" + std::to_string(i));
        simgrid::s4u::Actor::create("r" + std::to_string(i), ends[i].second, [mbox] { mbox->get<int>(); });
        static int payload = 0;
        auto c = mbox->put_init(&payload, f.bytes);
        c->set_rate(f.cap_gbps * 1e9);
        c->start();
        c->wait();
      } else {
        simgrid::s4u::Comm::sendto(ends[i].first, ends[i].second, f.bytes);
      }
      end[i] = simgrid::s4u::Engine::get_clock();
    });
  }
  engine.run();
  *wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  return end;
}

int run_one(const std::string& name, std::size_t n, std::uint64_t seed, int* argc, char** argv) {
  const Scenario s = make_scenario(name, n, seed);
  double lc_wall = 0, sg_wall = 0;
  const auto lc = run_linkcast(s, &lc_wall);
  const auto sg = run_simgrid(s, argc, argv, &sg_wall);
  double max_rel = 0, sum_rel = 0, makespan_lc = 0, makespan_sg = 0;
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    // Relative error of the flow's duration (completion minus start) in each tool.
    const double d_sg = sg[i] - s.flows[i].start_s, d_lc = lc[i] - s.flows[i].start_s;
    const double rel = std::fabs(d_lc - d_sg) / d_sg;
    max_rel = std::max(max_rel, rel);
    sum_rel += rel;
    makespan_lc = std::max(makespan_lc, lc[i]);
    makespan_sg = std::max(makespan_sg, sg[i]);
  }
  std::printf("RESULT %s flows=%zu max_rel=%.3e mean_rel=%.3e makespan_linkcast_s=%.9f makespan_simgrid_s=%.9f "
              "wall_linkcast_s=%.6f wall_simgrid_s=%.6f\n",
              name.c_str(), s.flows.size(), max_rel, sum_rel / static_cast<double>(s.flows.size()), makespan_lc,
              makespan_sg, lc_wall, sg_wall);
  if (std::getenv("LINKCAST_VALIDATE_VERBOSE"))
    for (std::size_t i = 0; i < s.flows.size(); ++i)
      std::printf("flow %zu start %.9f linkcast %.9f simgrid %.9f\n", i, s.flows[i].start_s, lc[i], sg[i]);
  return max_rel <= 1e-3 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string scenario = "all";
  std::size_t flows = 10000;
  std::uint64_t seed = 1;
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--scenario" && i + 1 < argc) scenario = argv[++i];
    else if (a == "--flows" && i + 1 < argc) flows = std::stoul(argv[++i]);
    else if (a == "--seed" && i + 1 < argc) seed = std::stoull(argv[++i]);
    else if (a == "--node" && i + 1 < argc) g_node_file = argv[++i];
    else if (a == "--help" || a == "-h") {
      std::printf("usage: %s [--scenario NAME|all] [--flows N] [--seed S] [--node FILE]\n", argv[0]);
      return 0;
    } else rest.push_back(argv[i]);
  }
  if (scenario != "all") {
    int rest_argc = static_cast<int>(rest.size());
    rest.push_back(nullptr);
    return run_one(scenario, flows, seed, &rest_argc, rest.data());
  }
  // One process per scenario (SimGrid: one engine per process); the summary as a table.
  const std::vector<std::pair<std::string, std::size_t>> runs = {
      {"shared-bottleneck", 0}, {"parking-lot", 0},       {"capped", 0},           {"fan-out", 0},
      {"fan-in", 0},            {"random-dgx1", 1000},    {"staggered-dgx1", 10000}, {"random-dgx1", flows}};
  int failures = 0;
  std::printf("%-18s %7s %11s %11s %14s %14s %9s\n", "scenario", "flows", "max |rel|", "mean |rel|", "linkcast (ms)",
              "SimGrid (ms)", "speedup");
  for (const auto& [name, n] : runs) {
    const std::string cmd = std::string("'") + argv[0] + "' --scenario " + name + " --flows " + std::to_string(n) +
                            " --seed " + std::to_string(seed) + " --node '" + g_node_file + "' --log=root.thres:critical";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return 1;
    char line[1024];
    bool got = false;
    while (std::fgets(line, sizeof line, p)) {
      char sname[64];
      std::size_t nf;
      double max_rel, mean_rel, ml, ms, wl, ws;
      if (std::sscanf(line, "RESULT %63s flows=%zu max_rel=%lf mean_rel=%lf makespan_linkcast_s=%lf makespan_simgrid_s=%lf "
                            "wall_linkcast_s=%lf wall_simgrid_s=%lf",
                      sname, &nf, &max_rel, &mean_rel, &ml, &ms, &wl, &ws) == 8) {
        std::printf("%-18s %7zu %11.2e %11.2e %14.3f %14.3f %8.0fx\n", sname, nf, max_rel, mean_rel, wl * 1e3, ws * 1e3,
                    ws / std::max(wl, 1e-6));
        got = true;
      }
    }
    const int rc = pclose(p);
    if (!got || rc != 0) {
      std::printf("%-18s failed (exit %d)\n", name.c_str(), rc);
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}
