#pragma once

#include <cstdint>
#include <functional>

namespace acme::model {

/// Dense job identifier, assigned by the workload source in submission order (0, 1, 2, ...).
enum class JobId : std::uint64_t {};
/// Index of a cluster in the platform (order of `clusters:` in the config).
enum class ClusterId : std::uint16_t {};
/// Index of a node inside its cluster (0 .. nodes-1).
enum class NodeId : std::uint32_t {};
/// A logical training run that may span several attempts (jobs).
enum class RunId : std::uint64_t {};
/// Interned user name (see NameTable).
enum class UserId : std::uint32_t {};

template <class Id>
constexpr auto to_index(Id id) noexcept {
  return static_cast<std::underlying_type_t<Id>>(id);
}

} // namespace acme::model

template <>
struct std::hash<acme::model::JobId> {
  std::size_t operator()(acme::model::JobId id) const noexcept {
    return std::hash<std::uint64_t>{}(acme::model::to_index(id));
  }
};
