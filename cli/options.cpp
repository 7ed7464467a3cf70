// Flags and checks shared by the subcommands (commands.h).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>

#include "cli/commands.h"
#include "core/base/file_io.h"

namespace d2s::cli {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::string extension_of(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

bool is_yaml_path(const std::string& path) {
  std::string ext = extension_of(path);
  return ext == ".yaml" || ext == ".yml";
}

CLI::Validator extension_validator(const std::vector<std::string>& extensions) {
  std::string list = join(extensions);
  return CLI::Validator(
      [extensions, list](std::string& value) -> std::string {
        std::string ext = extension_of(value);
        if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end()) return "";
        if (ext.empty()) return "'" + value + "' has no extension; accepted: " + list;
        return "unknown extension '" + ext + "' in '" + value + "'; accepted: " + list;
      },
      "");
}

CLI::Option* add_output_flag(CLI::App* cmd, std::string* path,
                             const std::vector<std::string>& extensions, const std::string& help) {
  return cmd->add_option("-o,--output", *path, help + " (" + join(extensions) + ")")
      ->type_name("OUT")
      ->check(extension_validator(extensions));
}

void add_entry_flag(CLI::App* cmd, std::string* entry) {
  cmd->add_option("--entry", *entry,
                  "the function, or class whose forward runs, to convert (default: the last "
                  "def or class of the file, or <module> for a script)")
      ->type_name("NAME");
}

void add_conversion_flags(CLI::App* cmd, ProgramFlags* flags) {
  add_entry_flag(cmd, &flags->entry);
  cmd->add_option("--weights", flags->weights,
                  "parameters by state_dict name (YAML map of tensors); must name every "
                  "parameter of the entry module")
      ->type_name("W.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  cmd->add_option("--seed", flags->seed,
                  "seed of d2s's generator: default parameter initialisation, fill: inputs "
                  "without their own seed, torch.rand*")
      ->type_name("N")
      // CLI11 reads "-1" into a uint64_t as 2^64-1; a negative seed is a mistake.
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            return !v.empty() && v[0] == '-' ? "the seed must not be negative, not " + v : "";
          },
          ""))
      ->capture_default_str();
  cmd->add_flag("--eval", flags->eval,
                "run the entry module in eval mode (self.training = False, dropout off); by "
                "default it is in training mode, as a fresh nn.Module is");
}

void add_program_flags(CLI::App* cmd, ProgramFlags* flags) {
  add_conversion_flags(cmd, flags);
  cmd->add_option("--max-iterations", flags->max_iterations,
                  "the most loop iterations in one run, all loops together")
      ->type_name("N")
      ->check(positive_count())
      ->capture_default_str();
  // Each model-level call nests several interpreter frames on the C++ stack, so
  // the depth is capped well below what would overflow it.
  cmd->add_option("--max-call-depth", flags->max_call_depth,
                  "the deepest nesting of function calls (recursion)")
      ->type_name("N")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
}

CLI::Validator positive_count() {
  return CLI::Range(int64_t{1}, std::numeric_limits<int64_t>::max(), "POSITIVE");
}

void add_max_trace_nodes_flag(CLI::App* cmd, int64_t* max_nodes) {
  cmd->add_option("--max-trace-nodes", *max_nodes,
                  "the longest trace (graph nodes) before d2s gives up, so that a long loop "
                  "cannot exhaust memory")
      ->type_name("N")
      ->check(positive_count())
      ->capture_default_str();
}

void require_readable(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw Error("'" + path + "' is a directory", SourceRange(), "give a file");
  }
  std::ifstream in(path);
  if (!in) {
    throw Error("cannot read file '" + path + "'", SourceRange(),
                std::filesystem::exists(path, ec) ? "check that the file is readable"
                                                  : "check the path: no such file");
  }
}

void check_output(const std::string& output, const std::string& flag,
                  const std::vector<std::string>& inputs) {
  if (output.empty()) return;
  for (const auto& in : inputs) {
    if (!in.empty() && same_file(output, in)) {
      throw Error(flag + " '" + output + "' is one of the command's input files", SourceRange(),
                  "d2s never overwrites its inputs; write to another file");
    }
  }
  // Checked before the work starts rather than found out at the end of a run.
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::path(output).parent_path();
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
    throw Error(flag + " '" + output + "': directory '" + dir.string() + "' does not exist",
                SourceRange(), "create the directory first");
  }
  if (std::filesystem::is_directory(output, ec)) {
    throw Error(flag + " '" + output + "' is a directory", SourceRange(), "give a file name");
  }
}

RunOptions make_run_options(const ProgramFlags& flags, const std::vector<NamedTensor>& weights) {
  RunOptions opts;
  opts.entry = flags.entry;
  opts.seed = flags.seed;
  for (const auto& w : weights) opts.weights[w.name] = w.tensor;
  opts.training = !flags.eval;
  opts.limits.max_call_depth = flags.max_call_depth;
  opts.limits.max_total_iterations = flags.max_iterations;
  opts.limits.max_loop_iterations = std::min(opts.limits.max_loop_iterations, flags.max_iterations);
  return opts;
}

}  // namespace d2s::cli
