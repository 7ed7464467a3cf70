// d2s diff MODEL.py --inputs IN.yaml [--inputs MORE.yaml ...] [--entry NAME]
//          [--weights W.yaml] [--format text|json] [-o OUT.txt|.json|.html|.svg|.png|.pdf|.dot]
//
// Converts by both routes and reports what tracing lost (contract §4, the diff
// report; docs/diff.md): as text, JSON, a self-contained HTML report, or a picture
// of both graphs side by side (viz/diff_picture.h, docs/render.md). Exits 0 whenever
// it produced a report: `d2s check` is the gate that fails.
#include <iostream>

#include "cli/diff_common.h"
#include "convert/reroll.h"
#include "core/base/file_io.h"
#include "viz/diff_picture.h"
#include "viz/html_report.h"

namespace d2s::cli {

namespace {

struct DiffCmd {
  std::string model;
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string output;
  ProgramFlags flags;
  int max_search_tries = convert::DiffOptions{}.max_search_tries;
  double max_search_seconds = convert::DiffOptions{}.max_search_seconds;
  int64_t max_trace_nodes = convert::DiffOptions{}.max_trace_nodes;
  size_t max_nodes = viz::RenderOptions{}.max_nodes;
  CLI::Option* format_option = nullptr;
  bool reroll = false;
};

// --reroll: the picture's trace (the plain trace of the first set) with its unrolled
// loops folded back (convert/reroll.h), so that it shows the loop beside the parsed one.
void reroll_traced_graph(const DiffCmd& o, convert::DiffReport& report) {
  InputFile inputs = load_input_sets(o.inputs.at(0), o.flags.seed);
  std::vector<NamedTensor> weights;
  if (!o.flags.weights.empty()) weights = load_weights(o.flags.weights, o.flags.seed);
  Program program = Program::load(o.model);
  TraceFlags plain;
  plain.no_guards = true;
  plain.max_nodes = o.max_trace_nodes;
  TraceResult traced = trace_model(program, o.flags, weights, plain, inputs.sets[0], o.inputs[0]);
  convert::reroll_loops(*traced.graph, traced.log);
  report.traced.nodes = traced.graph->node_count();  // the panel's title counts what it draws
  report.traced_graph = std::move(traced.graph);
}

// -o picks the form from its extension (text, json, html, or a picture's format); an
// explicit --format must agree with it.
std::string report_format(const DiffCmd& o) {
  if (o.output.empty()) return o.format;
  const std::string ext = extension_of(o.output);
  const std::string form = ext == ".json"                    ? "json"
                           : ext == ".html"                  ? "html"
                           : viz::format_from_extension(ext) ? "picture"
                                                             : "text";
  if (o.format_option->count() && o.format != form) {
    throw Error("--format " + o.format + " does not match -o " + o.output, SourceRange(),
                "drop --format (the extension picks it), or write to a ." +
                    std::string(o.format == "json" ? "json" : "txt") + " file");
  }
  return form;
}

std::string report_bytes(const convert::DiffReport& report, const std::string& format,
                         const DiffCmd& o) {
  viz::DiffPictureOptions picture;
  picture.render.max_nodes = o.max_nodes;
  if (format == "picture") {
    return viz::render_diff(report, *viz::format_from_extension(o.output), picture);
  }
  if (format == "html") return viz::html_diff_report(report, picture);
  return format == "json" ? convert::format_diff_json(report) : convert::format_diff_text(report);
}

int run_diff(const DiffCmd& o) {
  require_readable(o.model);
  for (const auto& in : o.inputs) require_readable(in);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  std::vector<std::string> in_files = o.inputs;
  in_files.push_back(o.model);
  in_files.push_back(o.flags.weights);
  check_output(o.output, "-o", in_files);
  const std::string format = report_format(o);

  convert::DiffOptions options;
  options.search = o.max_search_tries > 0 && o.max_search_seconds > 0;
  options.max_search_tries = o.max_search_tries;
  options.max_search_seconds = o.max_search_seconds;
  options.max_trace_nodes = o.max_trace_nodes;
  convert::DiffReport report = diff_model(o.model, o.inputs, o.flags, options);
  if (o.reroll) {
    if (format != "picture" && format != "html") {
      throw Error("--reroll applies to a picture or an HTML report", SourceRange(),
                  "write one with -o OUT.svg (or .png, .pdf, .dot, .html)");
    }
    reroll_traced_graph(o, report);
  }
  const std::string text = report_bytes(report, format, o);
  if (o.output.empty()) {
    std::cout << text << std::flush;
  } else {
    write_file_atomic(o.output, text);
  }
  keep_until_exit(std::move(report));
  return 0;
}

}  // namespace

Command setup_diff(CLI::App& app) {
  auto o = std::make_shared<DiffCmd>();
  CLI::App* cmd =
      app.add_subcommand("diff", "Trace and parse a model program and report what tracing lost");
  cmd->add_option("MODEL", o->model, "the model program")->required()->type_name("MODEL.py");
  cmd->add_option("--inputs", o->inputs,
                  "input sets to trace with (repeat the flag for more files); a branch counts "
                  "as lost only when no set takes it")
      ->required()
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_program_flags(cmd, &o->flags);
  o->format_option =
      cmd->add_option("--format", o->format, "the report's form on stdout (-o picks it itself)")
          ->check(CLI::IsMember({"text", "json"}))
          ->capture_default_str();
  cmd->add_option("--max-search-tries", o->max_search_tries,
                  "candidate inputs tried per counterexample search (0: no search)")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--max-search-seconds", o->max_search_seconds,
                  "wall time per counterexample search")
      ->type_name("S")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  add_max_trace_nodes_flag(cmd, &o->max_trace_nodes);
  cmd->add_option("--max-nodes", o->max_nodes,
                  "in a picture or HTML report, the nodes drawn per graph before the rest is "
                  "summarised in one note")
      ->type_name("N")
      ->check(positive_count())
      ->capture_default_str();
  cmd->add_flag("--reroll", o->reroll,
                "in a picture or HTML report, draw the trace with its unrolled loops folded back "
                "into loops (docs/code.md)");
  add_output_flag(cmd, &o->output, {".txt", ".json", ".html", ".svg", ".png", ".pdf", ".dot"},
                  "write the report (.txt, .json), an HTML report, or both graphs side by side "
                  "as a picture");
  return Command{cmd, [o] { return run_diff(*o); }};
}

}  // namespace d2s::cli
