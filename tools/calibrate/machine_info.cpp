#include "tools/calibrate/machine_info.hpp"

#include <array>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

#include <sys/vfs.h>
#include <unistd.h>

namespace acme::tools::calibrate {
namespace {

constexpr std::size_t HOST_NAME_BYTES = 256;

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      auto begin = line.find_first_not_of(' ', colon + 1);
      return begin == std::string::npos ? "unknown" : line.substr(begin);
    }
  }
  return "unknown";
}

} // namespace

MachineInfo describe_machine() {
  MachineInfo info;
  std::array<char, HOST_NAME_BYTES> name{};
  info.host = ::gethostname(name.data(), name.size() - 1) == 0 ? std::string(name.data()) : "unknown";
  info.cpu_model = cpu_model();
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::array<char, 32> date{};
  std::strftime(date.data(), date.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  info.date_utc = date.data();
  return info;
}

std::string file_system_type(const std::string& path) {
  // Magic numbers from linux/magic.h and the file systems' own headers (Lustre, GPFS, BeeGFS, WekaFS).
  static const std::map<long, std::string> NAMES = {
      {0xEF53, "ext4"},          {0x58465342, "xfs"},    {0x9123683E, "btrfs"}, {0x01021994, "tmpfs"},
      {0x6969, "nfs"},           {0x0BD00BD0, "lustre"}, {0x47504653, "gpfs"},  {0x19830326, "beegfs"},
      {0x794C7630, "overlayfs"}, {0xFE534D42, "smb2"},   {0xFF534D42, "cifs"},  {0x65735546, "fuse"},
      {0x2FC12FC1, "zfs"},       {0x00C36400, "ceph"}};
  struct statfs st {};
  if (::statfs(path.c_str(), &st) != 0) {
    return "unknown";
  }
  auto it = NAMES.find(static_cast<long>(st.f_type));
  if (it != NAMES.end()) {
    return it->second;
  }
  std::ostringstream hex;
  hex << "0x" << std::hex << st.f_type;
  return hex.str();
}

} // namespace acme::tools::calibrate
