# BenchExec tool-info module for tarsier, a bit-precise verifier for C.
#
# It tells BenchExec (https://github.com/sosy-lab/benchexec) where the
# `tarsier` binary is, its version, the command line of a task (property
# file, data model, input files) and how to read the result: tarsier
# prints the SV-COMP result line (TRUE, FALSE(valid-deref), UNKNOWN, ...)
# before its verdict line when it runs with --property.
#
# It finds `tarsier` in target/release under the tool directory (the
# repository), else on PATH (after `cargo install --path crates/tarsier`).
# Use it by its module name with the repository root on PYTHONPATH:
#     PYTHONPATH=. benchexec contrib/benchexec/tarsier-sv-benchmarks.xml \
#         --tool-directory . [-t MemSafety] [-N 2] [--no-container]
#     PYTHONPATH=. python3 -m benchexec.test_tool_info contrib.benchexec.tarsier \
#         --tool-directory .

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import ILP32, LP64, get_data_model_from_task

# tarsier's SV-COMP results and BenchExec's names for them.
SVCOMP_RESULTS = {
    "TRUE": result.RESULT_TRUE_PROP,
    "FALSE(unreach-call)": result.RESULT_FALSE_REACH,
    "FALSE(no-overflow)": result.RESULT_FALSE_OVERFLOW,
    "FALSE(valid-deref)": result.RESULT_FALSE_DEREF,
    "FALSE(valid-free)": result.RESULT_FALSE_FREE,
    "FALSE(valid-memtrack)": result.RESULT_FALSE_MEMTRACK,
    "FALSE(valid-memcleanup)": result.RESULT_FALSE_MEMCLEANUP,
    "FALSE(termination)": result.RESULT_FALSE_TERMINATION,
    "FALSE(no-data-race)": result.RESULT_FALSE_DATARACE,
    "FALSE": result.RESULT_FALSE_PROP,
    "UNKNOWN": result.RESULT_UNKNOWN,
}

# The verdict lines, for runs without a property file.
VERDICTS = {
    "VERIFICATION SUCCESSFUL": result.RESULT_TRUE_PROP,
    "VERIFICATION FAILED": result.RESULT_FALSE_PROP,
    "VERIFICATION UNKNOWN": result.RESULT_UNKNOWN,
}

# tarsier's exit codes that are not verdicts (see `tarsier --help`).
ERRORS = {1: "input error", 6: "usage error", 70: "internal error"}


class Tool(benchexec.tools.template.BaseTool2):
    """
    Tool info for tarsier: bounded model checking and k-induction for C,
    bit-precise, with replayed counterexamples.
    """

    def executable(self, tool_locator):
        try:
            return tool_locator.find_executable("tarsier", subdir="target/release")
        except benchexec.tools.template.ToolNotFoundException:
            return tool_locator.find_executable("tarsier")

    def name(self):
        return "tarsier"

    def version(self, executable):
        version = self._version_from_tool(executable, line_prefix="tarsier ")
        commit = self._version_from_tool(executable, line_prefix="commit ")
        return f"{version} ({commit})" if commit else version

    def cmdline(self, executable, options, task, rlimits):
        command = [executable] + list(options)
        if task.property_file and "--property" not in options:
            command += ["--property", task.property_file]
        data_model = get_data_model_from_task(task, {ILP32: "--32", LP64: "--64"})
        if data_model and "--32" not in options and "--64" not in options:
            command.append(data_model)
        if rlimits.cputime and "--timeout" not in options:
            # tarsier's own limit answers UNKNOWN with the reason just
            # before BenchExec would kill the run.
            command += ["--timeout", str(max(1, rlimits.cputime - 1))]
        return command + list(task.input_files_or_identifier)

    def determine_result(self, run):
        lines = [line.strip() for line in run.output]
        for line in reversed(lines):
            if line in SVCOMP_RESULTS:
                return self._unless_timeout(run, SVCOMP_RESULTS[line])
        for line in reversed(lines):
            if line in VERDICTS:
                return self._unless_timeout(run, VERDICTS[line])
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        error = ERRORS.get(run.exit_code.value)
        if error:
            return f"{result.RESULT_ERROR} ({error})"
        return result.RESULT_ERROR

    @staticmethod
    def _unless_timeout(run, status):
        # An UNKNOWN that BenchExec's limit cut short is a timeout.
        if status == result.RESULT_UNKNOWN and run.was_timeout:
            return result.RESULT_TIMEOUT
        return status

    def get_value_from_output(self, output, identifier):
        # `identifier` is a line prefix such as "approximation:".
        for line in output:
            if line.startswith(identifier):
                return line[len(identifier) :].strip()
        return None
