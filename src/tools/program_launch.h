#pragma once
// Starting an unmodified program with Strata's libraries in front of the
// system's. Shared by every subcommand that runs a program.

#include <map>
#include <string>
#include <vector>

namespace strata::tools {

struct LaunchRequest {
  std::vector<std::string> argv;               // program and its arguments
  std::map<std::string, std::string> environment;  // STRATA_* settings to add
};

// Checks the request before anything runs: Strata's libraries, the driver,
// the program. On failure prints one "strata <command>: error: ..." line and
// returns the exit status to use (non-zero); returns 0 when all is well.
int CheckLaunch(const char* command, const LaunchRequest& request, std::string* resolved_program);

// Replaces this process with the program (only returns on failure, with the status).
int ExecWithStrata(const char* command, const LaunchRequest& request, const std::string& resolved_program);

// Why no EGL/GLES call of `program` (resolved) reached Strata, as well as can
// be told after it ran: it is statically linked or setuid/setgid (the dynamic
// linker ignores Strata's environment), or what libstrata_audit.so wrote to
// `audit_report` (STRATA_AUDIT_REPORT) about each process: that it loaded no
// GL library, or loaded one from outside Strata. "" if nothing is known.
std::string WhyNoCallReachedStrata(const std::string& program, const std::string& audit_report);

// Finds `name` the way execvp would; "" if not found.
std::string FindProgram(const std::string& name);

}  // namespace strata::tools
