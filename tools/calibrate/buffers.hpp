#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include "tools/calibrate/backend.hpp"

namespace acme::tools::calibrate {

/// Device memory owned for a scope.
class DeviceBuffer {
public:
  DeviceBuffer(Backend& backend, std::size_t bytes)
      : backend_(backend)
      , ptr_(backend.device_alloc(bytes))
      , bytes_(bytes) {}
  ~DeviceBuffer() { backend_.device_free(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return ptr_; }
  std::size_t size() const { return bytes_; }

private:
  Backend& backend_;
  void* ptr_;
  std::size_t bytes_;
};

/// Host memory (pageable or pinned) owned for a scope.
class HostBuffer {
public:
  HostBuffer(Backend& backend, std::size_t bytes, HostMemory kind)
      : backend_(backend)
      , ptr_(backend.host_alloc(bytes, kind))
      , bytes_(bytes)
      , kind_(kind) {}
  ~HostBuffer() { backend_.host_free(ptr_, kind_); }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  void* get() const { return ptr_; }
  std::size_t size() const { return bytes_; }
  HostMemory kind() const { return kind_; }

private:
  Backend& backend_;
  void* ptr_;
  std::size_t bytes_;
  HostMemory kind_;
};

/// Removes a scratch file when the scope ends, whatever happened.
class ScratchFile {
public:
  explicit ScratchFile(std::string path) : path_(std::move(path)) {}
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

} // namespace acme::tools::calibrate
