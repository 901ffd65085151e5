#include "sim/config/provenance.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

namespace acme::config {
namespace {

namespace fs = std::filesystem;

// FNV-1a 64-bit parameters (Fowler, Noll, Vo; http://www.isthe.com/chongo/tech/comp/fnv/).
constexpr std::uint64_t FNV_OFFSET_BASIS = 14695981039346656037ULL;
constexpr std::uint64_t FNV_PRIME = 1099511628211ULL;
constexpr std::size_t HEX_DIGITS = 16;
constexpr std::size_t READ_CHUNK_BYTES = 1 << 20;

/// Keys whose scalar value names a file the run reads.
const std::set<std::string> FILE_KEYS = {"path", "module", "nodes_from", "catalogue", "calibration"};

std::string hex(std::uint64_t hash) {
  std::array<char, HEX_DIGITS + 1> text{};
  std::snprintf(text.data(), text.size(), "%016llx", static_cast<unsigned long long>(hash));
  return {text.data(), HEX_DIGITS};
}

void mix(std::uint64_t& hash, std::string_view bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= FNV_PRIME;
  }
}

bool is_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

std::string cached_hash(const std::string& path, FileHashCache* cache) {
  if (cache == nullptr) {
    return file_hash(path);
  }
  auto [it, added] = cache->try_emplace(path);
  if (added) {
    it->second = file_hash(path);
  }
  return it->second;
}

/// The Python files beside a policy module (it may import them), sorted by name.
void add_module_neighbours(const InputFile& module, std::vector<InputFile>& out, FileHashCache* cache) {
  fs::path folder = fs::path(module.path).parent_path();
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(folder.empty() ? fs::path(".") : folder, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().extension() == ".py" && it->path().filename() != fs::path(module.path).filename() &&
        is_file(it->path().string())) {
      found.push_back(it->path());
    }
  }
  std::sort(found.begin(), found.end());
  for (const fs::path& p : found) {
    std::string path = (folder / p.filename()).string();
    out.push_back({module.key + "/" + p.filename().string(), path, cached_hash(path, cache)});
  }
}

void walk(const Config& cfg, const YAML::Node& node, const std::string& at, std::vector<InputFile>& out,
          FileHashCache* cache) {
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      walk(cfg, node[i], at + "[" + std::to_string(i) + "]", out, cache);
    }
    return;
  }
  if (!node.IsMap()) {
    return;
  }
  for (const auto& entry : node) {
    std::string key = entry.first.Scalar();
    std::string here = at.empty() ? key : at + "." + key;
    if (FILE_KEYS.contains(key) && entry.second.IsScalar()) {
      std::string path = cfg.resolve_path(entry.second.Scalar());
      if (is_file(path)) {
        out.push_back({here, path, cached_hash(path, cache)});
        if (key == "module") {
          add_module_neighbours(InputFile(out.back()), out, cache);
        }
      }
      continue;
    }
    walk(cfg, entry.second, here, out, cache);
  }
}

} // namespace

std::string content_hash(std::string_view bytes) {
  std::uint64_t hash = FNV_OFFSET_BASIS;
  mix(hash, bytes);
  return hex(hash);
}

std::string file_hash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in || !is_file(path)) {
    return "";
  }
  std::uint64_t hash = FNV_OFFSET_BASIS;
  std::string chunk(READ_CHUNK_BYTES, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    mix(hash, std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())));
  }
  return hex(hash);
}

std::vector<InputFile> input_files(const Config& cfg, FileHashCache* cache) {
  std::vector<InputFile> out{{"config", cfg.file, cfg.text_hash}};
  walk(cfg, cfg.root.yaml(), "", out, cache);
  return out;
}

std::string resolved_config_text(const Config& cfg, const std::vector<std::string>& defaults) {
  YAML::Node tree = YAML::Clone(cfg.root.yaml());
  if (!tree["seed"]) {
    tree["seed"] = cfg.seed;
  }
  std::string overrides;
  for (const Override& o : cfg.overrides) {
    overrides += (overrides.empty() ? "" : " ") + o.key_path + "=" + o.value;
  }
  std::error_code ec;
  fs::path base = fs::absolute(cfg.base_dir.empty() ? fs::path(".") : fs::path(cfg.base_dir), ec).lexically_normal();
  YAML::Emitter yaml;
  yaml << tree;
  std::string text = "# " + std::string(RESOLVED_CONFIG_FILE) + ": the config this run used, after its overrides\n";
  text += "# schema: " + std::to_string(RESOLVED_CONFIG_SCHEMA) + "\n";
  text += "# source: " + cfg.file + " (content hash " + cfg.text_hash + ")\n";
  text += "# overrides: " + (overrides.empty() ? std::string("none") : overrides) + "\n";
  text += "# base_dir: " + base.string() + "\n";
  text += yaml.c_str();
  text += "\n";
  if (!defaults.empty()) {
    text += "# defaults: the values this run used for keys the config leaves out (policies and the sections\n"
            "# declared in parameter tables; docs/config_reference.md)\n";
    for (const std::string& line : defaults) {
      text += "#   " + line + "\n";
    }
  }
  return text;
}

std::string resolved_base_dir(std::string_view text) {
  constexpr std::string_view TAG = "# base_dir: ";
  std::size_t at = text.find(TAG);
  if (at == std::string_view::npos) {
    return "";
  }
  std::size_t end = text.find('\n', at);
  return std::string(
      text.substr(at + TAG.size(), (end == std::string_view::npos ? text.size() : end) - at - TAG.size()));
}

} // namespace acme::config
