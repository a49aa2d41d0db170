# glvnd EGL vendor files: the JSON that makes the system's libEGL (glvnd) load
# one of Strata's libraries as a vendor, naming it by full path. Used for the
# remote client driver (docs/remote.md) and the loader (docs/architecture.md,
# "Through glvnd").

set(STRATA_GLVND_VENDOR_DIR "${CMAKE_INSTALL_DATADIR}/glvnd/egl_vendor.d" CACHE STRING
    "Where the glvnd EGL vendor files are installed (relative to the prefix, or absolute: /usr/share/glvnd/egl_vendor.d)")

set(STRATA_GLVND_VENDOR_JSON [=[{
    "file_format_version" : "1.0.0",
    "ICD" : {
        "library_path" : "@library@"
    }
}
]=])

# The build tree's vendor file for `library` (a file name in Strata's library
# directory), written beside it.
function(strata_glvnd_vendor_file_in_build library file_name)
  set(library "${STRATA_LIB_OUTPUT_DIR}/${library}")
  file(CONFIGURE OUTPUT "${STRATA_LIB_OUTPUT_DIR}/${file_name}" CONTENT "${STRATA_GLVND_VENDOR_JSON}" @ONLY)
endfunction()

# The installed one, written at install time when the prefix (`cmake --install
# --prefix`) is known. `directory` is relative to the prefix, or absolute.
function(strata_install_glvnd_vendor_file library directory file_name)
  install(CODE "
    set(library \"\${CMAKE_INSTALL_PREFIX}/${STRATA_LIB_SUBDIR}/${library}\")
    set(vendor_dir \"${directory}\")
    if(NOT IS_ABSOLUTE \"\${vendor_dir}\")
      set(vendor_dir \"\${CMAKE_INSTALL_PREFIX}/\${vendor_dir}\")
    endif()
    message(STATUS \"Installing: \$ENV{DESTDIR}\${vendor_dir}/${file_name}\")
    file(CONFIGURE OUTPUT \"\$ENV{DESTDIR}\${vendor_dir}/${file_name}\" CONTENT [=[${STRATA_GLVND_VENDOR_JSON}]=] @ONLY)
  ")
endfunction()
