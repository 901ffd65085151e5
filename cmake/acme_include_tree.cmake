# Code includes project headers as "acme/<layer>/<file>.hpp". The layers live in different folders
# (sim/model, policies, workloads, ...), so the build tree gets an include root whose acme/<layer>
# entries are symbolic links to the source folders.
set(ACME_INCLUDE_ROOT ${CMAKE_BINARY_DIR}/include)
file(MAKE_DIRECTORY ${ACME_INCLUDE_ROOT}/acme)
set(_acme_layers
    "model=sim/model" "config=sim/config" "topology=sim/topology" "engine=sim/engine" "metrics=sim/metrics"
    "cli=sim/cli" "policies=policies" "workloads=workloads" "validate=validate" "tools=tools" "study=sim/study")
foreach(_entry IN LISTS _acme_layers)
  string(REPLACE "=" ";" _pair "${_entry}")
  list(GET _pair 0 _name)
  list(GET _pair 1 _dir)
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${_dir} ${ACME_INCLUDE_ROOT}/acme/${_name} SYMBOLIC)
endforeach()
