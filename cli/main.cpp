// d2s: dynamic model programs to static graphs. See docs/cli.md.
//
// main() declares the subcommands, parses the command line, runs the selected
// command, and maps every way out to the contract's exit codes: 0 success, 1 a
// check or guard failed, 2 bad usage or bad input. CLI11's own exit codes (105
// for a parse error, ...) are not used.
#include <iostream>

#include "cli/commands.h"
#include "convert/pass_manager.h"
#include "core/base/allocator.h"
#include "core/io/graph_yaml.h"
#include "core/tensor/tensor.h"

#ifndef D2S_VERSION
#define D2S_VERSION "0.0.0"
#endif

namespace {

// "d2s run" for the selected subcommand, "d2s" when none was reached.
std::string command_path(const CLI::App& app) {
  auto subs = app.get_subcommands();
  return subs.empty() ? "d2s" : "d2s " + subs[0]->get_name();
}

int run_main(int argc, char** argv) {
  using namespace d2s::cli;
  CLI::App app{
      "d2s: convert PyTorch-style model programs into static graphs, by tracing and by "
      "source parsing, and compare the two.",
      "d2s"};
  app.set_version_flag("--version", "d2s " D2S_VERSION);
  app.option_defaults()->always_capture_default();
  app.footer("Exit codes: 0 success, 1 a check or guard failed, 2 bad usage or bad input.");

  std::vector<Command> commands = {
      setup_parse(app), setup_trace(app), setup_run(app),    setup_diff(app), setup_render(app),
      setup_check(app), setup_grad(app),  setup_export(app), setup_code(app), setup_ops(app)};

  // Resource limits every command shares. Each is one process-wide setting
  // (core/tensor/tensor.h, core/io/graph_yaml.h), applied once below before the command runs, so
  // every allocation site and graph reader obeys it without a context threaded through.
  int64_t max_tensor_elements = d2s::kMaxTensorElements;
  int64_t max_tensor_memory = d2s::kMaxTensorMemory;
  int64_t max_graph_nodes = d2s::ir::kDefaultMaxGraphNodes;
  for (const auto& c : commands) {
    c.app
        ->add_option("--max-tensor-elements", max_tensor_elements,
                     "Largest tensor (elements) d2s will allocate")
        ->check(CLI::Range(int64_t{1}, d2s::kMaxTensorElementsCeiling));
    // A byte count with an optional unit (CLI11's AsSizeValue: 512MB, 16GB; KB = 1024).
    c.app
        ->add_option("--max-tensor-memory", max_tensor_memory,
                     "Most bytes of tensors alive at once (a number, or with a unit: 512MB, 16GB)")
        ->transform(CLI::AsSizeValue(false))
        ->check(d2s::cli::positive_count());
    c.app
        ->add_option("--max-graph-nodes", max_graph_nodes,
                     "Most nodes a graph file (.yaml) may hold")
        ->check(d2s::cli::positive_count());
  }
  // The graph passes' driver (convert/pass_manager.h), one process-wide setting too:
  // every command that lowers a program runs the passes through it.
  d2s::convert::PassOptions passes = d2s::convert::default_pass_options();
  for (const auto& c : commands) {
    c.app
        ->add_option("--print-ir-after", passes.print_ir_after,
                     "Print the graph on stderr after each run of this pass (or of every "
                     "pass: all)")
        ->type_name("PASS|all");
    // Not `add_flag(name, bool&)`: its default would be taken from the variable, and
    // the variable may already be true (D2S_VERIFY_EACH=1, a debug build).
    c.app->add_flag_callback(
        "--verify-each", [&passes] { passes.verify_each = true; },
        "Verify the graph after every pass");
    c.app->add_flag("--pass-stats", passes.stats,
                    "Print what each graph pass did (runs, nodes) on stderr");
  }

  // An unknown first word would otherwise read "The following argument was not
  // expected": say it is an unknown command, with a suggestion.
  if (argc > 1 && argv[1][0] != '-') {
    std::string word = argv[1];
    bool known = false;
    for (const auto& c : commands) known = known || c.app->get_name() == word;
    if (!known) {
      std::string names;
      for (const auto& c : commands) names += (names.empty() ? "" : ", ") + c.app->get_name();
      return report_usage_error("d2s",
                                "unknown command '" + word + "' (the commands are " + names + ")");
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    return report_usage_error(command_path(app), e.what());
  }

  d2s::set_max_tensor_elements(max_tensor_elements);
  d2s::set_max_tensor_memory(max_tensor_memory);
  d2s::ir::set_max_graph_nodes(max_graph_nodes);
  if (!passes.print_ir_after.empty()) d2s::convert::check_pass_name(passes.print_ir_after);
  d2s::convert::set_default_pass_options(passes);
  for (const auto& c : commands) {
    if (c.app->parsed()) return c.run();
  }
  std::string names;
  for (const auto& c : commands) names += (names.empty() ? "" : ", ") + c.app->get_name();
  return report_usage_error("d2s", "a command is required: " + names);
}

}  // namespace

int main(int argc, char** argv) {
  d2s::configure_process_allocator();
  try {
    return run_main(argc, argv);
  } catch (const d2s::Error& err) {
    return d2s::cli::report_error(err);
  } catch (const std::bad_alloc&) {
    return d2s::cli::report_internal_error("out of memory");
  } catch (const std::exception& e) {
    return d2s::cli::report_internal_error(e.what());
  } catch (...) {
    return d2s::cli::report_internal_error("unknown exception");
  }
}
