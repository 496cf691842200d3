//! The manual printed by `tarsier --help`. Every flag in
//! [`crate::args::FLAGS`] is explained here (a unit test keeps them in step).

pub const MANUAL: &str = "\
tarsier — a bit-precise verifier for C programs

USAGE:
    tarsier FILE... [OPTIONS]

    Several FILEs are compiled and linked into one program. Files ending in
    .c go through the system C preprocessor; files ending in .i are taken as
    already preprocessed. Options may come before, between or after files;
    a lone '--' ends the options (every later argument is a file).

    A FILE ending in .yml or .yaml is an SV-COMP task definition (format
    2.0): its input_files are the program and its data_model sets --32 or
    --64. With --property, that property is checked; without, every
    property of the task is, one after the other, each result preceded by
    a line 'property: FILE.prp'. A malformed task is an input error that
    names the file and line.

DESCRIPTION:
    tarsier checks that no execution of the program, starting at main (or
    --function), violates a property: a failed assert(), a call to
    reach_error(), an out-of-bounds array access, an invalid pointer
    dereference, a division by zero, and (when asked for) arithmetic
    overflow, memory leaks, NaN results, data races or deadlocks.

    The last line of a verification is one of
        VERIFICATION SUCCESSFUL   every property holds
        VERIFICATION FAILED       a property is violated (with a trace)
        VERIFICATION UNKNOWN      neither could be shown; the line before
                                  it gives the reason
    tarsier never guesses: when it cannot decide, it says UNKNOWN.

STATUS:
    The front end (preprocess, parse, type-check, lower to the IR) works;
    a construct it does not handle yet is reported with an error that
    starts with 'unsupported:'. Verification is bounded model checking
    (one bound, or incremental) and k-induction (the default without
    --unwind). Programs with POSIX threads are checked over every
    interleaving under sequential consistency. --termination proves that
    every loop has a ranking function or exits within a bound, or refutes
    with a lasso. Options the engine does not implement yet
    (--multi-property) answer VERIFICATION UNKNOWN with the reason, never
    a verdict that ignores them.

INPUT OPTIONS:
    -D NAME[=VALUE], -DNAME[=VALUE]
        Define a preprocessor macro (as cc -D).
    -U NAME, -UNAME
        Undefine a preprocessor macro (as cc -U).
    -I DIR, -IDIR
        Add DIR to the preprocessor's include search path.
    --include FILE
        Include FILE before the first line of every input (as cc -include).
    --cpp CMD
        The preprocessor command; CMD is split at spaces (default: 'cpp',
        else 'cc -E').
    --32
        Compile for the ILP32 data model (int, long, pointers: 32 bits).
    --64
        Compile for the LP64 data model (long, pointers: 64 bits). Default.
    --function NAME
        Start the program at function NAME instead of main.

ACTIONS:
    --parse-only
        Preprocess, parse, type-check and lower the program, print the
        diagnostics, and stop. Exit status 0 when the program is accepted,
        1 when it is not.
    --show-ir
        Print the program's intermediate representation and stop.
    --show-invariants
        Print the candidate loop invariants that abstract interpretation
        (intervals, congruences, octagons, affine equalities) finds at each
        loop head, as C expressions with file:line, whether the solver
        certified each (it holds on loop entry and one iteration keeps it,
        assuming the others), and stop. Verification assumes only the
        certified ones.
    --inject-wrong-invariants
        For testing the certification: add a wrong twin of every
        candidate invariant (its negation; a bound moved inwards by one).
        Certification must reject them; verdicts must not change.
    (neither)
        Verify the program.

VERIFICATION OPTIONS:
    (no engine option)
        Without --unwind, k-induction (below); with it, bounded model
        checking with that bound.
    --unwind N
        Bounded model checking: unwind every loop at most N times (each
        iteration runs N-1 back edges at most, whatever continue or goto
        takes it back to the head).
    --no-unwinding-assertions
        Treat the unwinding bound as an assumption instead of checking that
        it suffices; a SUCCESSFUL result then means 'no violation within the
        bound'.
    --incremental-bmc
        Bounded model checking with the bound raised step by step (1, 2, 4,
        ...; with threads 1, 2, 3, 4, 8, ...); SUCCESSFUL once every loop
        ends within the bound.
    --k-induction
        Prove the properties for loops of any length: for k = 1, 2, ... a
        base case (bounds 1, 2, 4, ... as --incremental-bmc, finding
        violations and proofs by exhaustion) and an inductive step (every
        loop may start from any state its modified variables can hold, with
        its properties assumed for k iterations and checked in the next).
        SUCCESSFUL says which proved it. The default without --unwind;
        --unwind does not bound it.
    --k-induction-parallel
        k-induction with its base cases (and forward conditions) and its
        inductive steps in two threads; the first decisive answer stops
        the other.
    --bidirectional
        Bidirectional k-induction (bkind): the state from which a failed
        inductive step reaches a violation becomes a target of the next
        base cases; one that reaches it checks a bound k+1 deeper next. A
        violation is still reported with a trace from the program's entry.
    --max-k-step N
        The largest bound --incremental-bmc tries (default 4096), and for
        --k-induction the largest k and base-case bound (default: k up to
        50, bounds up to 4096); past them the answer is UNKNOWN.
    --k-step N
        How much k grows between inductive steps (default 1).
    --no-invariants
        k-induction without loop invariants. By default, abstract
        interpretation proposes invariants at loop heads (intervals,
        congruences, octagons, affine equalities), the solver certifies
        them (only those it proves inductive are kept) and the inductive
        step assumes the certified ones.
    --termination
        Check that every run of the program ends, and nothing else: TRUE
        when every loop has a certified ranking function (a value that
        decreases on every iteration, linear or lexicographic, bit-precise)
        and nothing recurses, or every loop and recursion exits within a
        bound (calls of functions without a body are assumed to return,
        exit and abort end the run), FALSE with a lasso (a reachable state at a loop head
        that the loop returns to, replayed), UNKNOWN otherwise.

PROPERTY OPTIONS:
    --no-assertions
        Do not check assert() and __VERIFIER_assert() calls.
    --no-bounds-check
        Do not check array bounds.
    --no-pointer-check
        Do not check pointer dereferences (null, dangling, out of object)
        nor pointer relations (below).
    --no-pointer-relation-check
        Do not check that pointers ordered (< <= > >=) or subtracted
        point into the same object (C11 6.5.8p5, 6.5.6p9; reported as
        \"same object violation\"). Unchecked, the order or difference of
        pointers into different objects is any value.
    --no-align-check
        Do not check that accesses through pointers are aligned for their
        type (C11 6.3.2.3p7); unchecked, a misaligned access reads and
        writes the bytes it names, as x86 does.
    --no-vla-size-check
        Do not check the lengths of variable-length arrays (C11
        6.7.6.2p5); unchecked, a zero length is an empty array (gcc's),
        and a negative or oversized one, which no model follows, makes
        the paths through it an approximation.
    --no-div-by-zero-check
        Do not check division and remainder by zero.
    --no-library-assertions
        Do not check the C library models' own assertions (a semaphore
        used before sem_init or after sem_destroy).
    --overflow-check
        Check signed arithmetic overflow: + - * / %, unary minus, and <<
        (the exact result must fit the type).
    --unsigned-overflow-check
        Also check unsigned wrap-around of + - * <<, and negation of a
        non-zero unsigned value.
    --float-overflow-check
        Check that floating-point + - * / and conversions to a narrower
        floating type do not overflow to an infinity from finite operands
        (ESBMC's --overflow-check includes this; here, as in CBMC, it is a
        flag of its own).
    --undefined-shift-check
        Check that shift amounts are neither negative nor at least the
        width of the shifted operand, and that no negative value is
        shifted left (CBMC's check).
    --ub-shift-check
        ESBMC's: --undefined-shift-check, and also that the exact result
        of a signed left shift fits its type (C11 6.5.7p4), which
        --overflow-check checks as an overflow.
    --no-clz-zero-check
        Do not check that __builtin_clz and __builtin_ctz (the l, ll and
        one-argument g forms too) are not given 0, which GCC leaves
        undefined (on by default, as CBMC's bit-count check;
        --clz-zero-check, ESBMC's name, is accepted).
    --memory-leak-check
        Check that allocated memory is freed where the program ends, as
        ESBMC's --memory-leak-check does: when main returns, at _Exit and
        abort, and at exit once an atexit handler has been registered
        (without one, exit leaves the memory to the system). Memory still
        reachable counts too. (With --property, valid-memtrack and
        valid-memcleanup keep SV-COMP's definitions.)
    --nan-check
        Check that floating-point + - * / do not produce a NaN from
        operands that are not NaN (inf - inf, 0 * inf, 0 / 0, inf / inf).
    --data-races-check
        Check concurrent programs for data races: two accesses of the
        same byte by different threads, at least one a write, not both
        inside atomic sections, that can happen one right after the
        other (nothing orders them: no lock, join or thread start).
    --deadlock-check
        Check concurrent programs for deadlocks: every thread that has
        not ended, the main thread among them, waits for ever on a mutex
        another thread holds or on a join of a thread that never ends.
    --context-bound N
        ESBMC's: a violation counts only when an interleaving with at
        most N context switches (the running thread giving way to
        another) reaches it. tarsier explores every interleaving; a
        violation whose replayed interleaving has more switches gives
        UNKNOWN, and SUCCESSFUL holds for every interleaving, so under
        any bound.
    --error-label LABEL
        The property is 'label LABEL is unreachable'.
    --force-malloc-success
        malloc, calloc, realloc and aligned_alloc never return NULL, also
        for requests glibc refuses (more than the address space, an odd
        alignment). A request no object can meet (calloc beyond SIZE_MAX)
        makes the result UNKNOWN with the reason, as does a block larger
        than the memory model holds. Without the flag allocations may fail.
    --force-realloc-success
        realloc never returns NULL (as above), whether or not the other
        allocations may fail.
    --round-to-nearest, --round-to-plus-inf, --round-to-minus-inf,
    --round-to-zero
        The IEEE-754 rounding mode the program starts in (default: to
        nearest, ties to even); fesetround and __ESBMC_rounding_mode
        change it while the program runs.
    --multi-property
        Report every violated property, not only the first one found.
    --property FILE.prp
        Check the SV-COMP property in FILE.prp instead of the checks above:
        unreach-call (G ! call(reach_error())), no-overflow (signed
        overflow), valid-memsafety (valid-free, valid-deref,
        valid-memtrack) or valid-memcleanup; malloc never fails.
        termination (F end) as --termination; no-data-race (G ! data-race)
        as --data-races-check alone. The SV-COMP
        result (TRUE, FALSE(unreach-call), FALSE(no-overflow),
        FALSE(termination), FALSE(no-data-race),
        FALSE(valid-deref), FALSE(valid-free), FALSE(valid-memtrack),
        FALSE(valid-memcleanup) or UNKNOWN) is printed on the line before
        the verdict. A well-formed property file with other formulas
        answers UNKNOWN, quoting them.

OUTPUT OPTIONS:
    --json
        Print the result as one JSON document instead of text: verdict,
        reason (UNKNOWN), violated property and trace (FAILED),
        approximations, the SV-COMP result with --property, and run
        figures (bound, symex and SAT seconds, AIG and CNF sizes). The
        exit code is the same as without --json.
    --sarif FILE
        Also write the result to FILE as a SARIF 2.1.0 log (for CI systems
        and editors): a violation is a result whose rule id is the property
        class, at the violated line, with the trace as a code flow; a
        SUCCESSFUL or UNKNOWN verdict is a run-level notification.
    --html FILE
        Also write the result to FILE as one self-contained HTML page
        (no script, no network): the verdict, the inputs the
        counterexample chose, the trace, and the source with each step's
        values beside its line and the violated line marked in red.
    --harness FILE.c
        On FAILED, write a C file that defines the program's
        nondeterministic functions (__VERIFIER_nondet_*, nondet_*, its
        own body-less functions), its undefined extern globals and
        reach_error, so that `cc -g program.c FILE.c && ./a.out` follows
        the counterexample: a failed assertion aborts, memory errors show
        under -fsanitize=address,undefined, overflow under
        -fsanitize=signed-integer-overflow (FILE's first comment gives the
        command). A command line the counterexample chose is taken by
        running again with it; uninitialised locals it reads come from a
        rewritten copy of the program file, which FILE's comment names.
        Inputs a native run cannot be made to take (a failing malloc,
        stdin) are listed there.
    --test-suite DIR
        On FAILED, write the counterexample as a Test-Comp test suite into
        DIR: metadata.xml and testcase-1.xml (the nondet calls' values in
        order), as Test-Comp's validators (TestCov) read them.
    --witness FILE, --witness-output FILE
        Write an SV-COMP witness of a TRUE or FALSE result to FILE: for
        FALSE, the path to the violation (the value of each
        nondeterministic input, then the violation); for TRUE, the
        certified loop invariants the proof used, as C expressions at
        their loop heads. Needs --property (the witness states it).
    --witness-format yaml|graphml
        The witness format: yaml (SV-COMP's format 2.0, the default) or
        graphml (format 1.0).
    --graphml-witness FILE
        --witness FILE --witness-format graphml (CBMC's spelling).
    --validate-witness FILE
        Check the violation witness FILE (YAML, format 2.0) against the
        program: its input values are replayed by the interpreter, which
        must reach the violation at the witness's target. Prints
        'witness confirmed' (exit 10, the violation is real) or 'witness
        not confirmed' with the reason (exit 5).
    --smt-formula FILE
        Write the verification condition to FILE in SMT-LIB2.
    --verbosity N
        0: nothing on stderr while the run goes on. 1 (the default): a
        progress line (stage, bound k, formula size, solver time), redrawn
        at most four times a second, only when stderr is a terminal and
        without --json.

SOLVER OPTIONS:
    --solver NAME
        The solver that answers the queries: cadical (the default:
        bit-blasting into the bundled CaDiCaL), z3, cvc5, bitwuzla,
        boolector, yices, mathsat, or
        smtlib:CMD for any SMT-LIB2 solver command that reads a script on
        standard input (e.g. smtlib:yices-smt2 --incremental). An external
        solver gets the same queries in SMT-LIB2; a model it finds is
        checked against the query and replayed like any other. A solver
        that is not installed is a usage error (exit status 6).
    --z3, --cvc5, --bitwuzla
        Short for --solver z3, --solver cvc5, --solver bitwuzla.
    --crosscheck NAME
        CaDiCaL answers the queries, and every query is also put to the
        external solver NAME (as for --solver); the output counts the
        queries both decided and lists every one they answer differently,
        written as an SMT-LIB2 file with a minimised copy. A disagreement
        is a bug in tarsier's solver stack or in NAME.
    --crosscheck-dir DIR
        Where --crosscheck writes those files (default: a new directory
        under the system's temporary directory).

RESOURCE LIMITS:
    Both limits cover the whole run, front end included, also with
    --parse-only; reaching one prints the reason and VERIFICATION UNKNOWN
    and exits with status 5. So does running out of memory in any other
    way (an address-space limit such as `ulimit -v`, a request no memory
    can hold).
    --timeout SECONDS
        Stop after SECONDS of wall-clock time.
    --memlimit MB
        Stop when the resident memory exceeds MB megabytes (default: 85%
        of the machine's memory, or of its control group's limit when
        that is smaller).

ESBMC AND CBMC SPELLINGS:
    Accepted with the meaning they have there (the README has the table):
    --bounds-check, --pointer-check, --div-by-zero-check
        Switch the check on (it is on by default; these undo a --no-...).
    --signed-overflow-check
        Same as --overflow-check.
    --unwindset LOOP:N[,LOOP:N...]
        Unwind loop LOOP at most N times, with its unwinding assertion as
        for --unwind (other loops keep --unwind, or run to their end).
        LOOP is an id as --show-loops prints it: FUNCTION.I (CBMC's) or
        the loop's number (ESBMC's). A program with such a bound is
        checked by BMC unless an engine is chosen.
    --show-loops
        Print every loop of the program with its id, number and place,
        and stop.
    --no-slice
        Accepted and ignored: tarsier does not slice the formula.
    --boolector, --yices, --mathsat
        Short for --solver boolector, yices (yices-smt2) or mathsat: a
        solver that is not installed is a usage error saying so.
    --show-vcc
        Print the verification condition (SMT-LIB2, as --smt-formula) on
        standard output before the result.

OTHER:
    -h, --help       Print this manual.
    -V, --version    Print the version, the commit it was built from and
                     the build (target, profile, compiler).

EXIT STATUS:
    0   VERIFICATION SUCCESSFUL, or --parse-only/--show-ir accepted the input
    1   input error: a file could not be read, preprocessed, parsed or
        type-checked (the diagnostics say where: file:line:col)
    5   VERIFICATION UNKNOWN (also when the input uses a construct tarsier
        does not support yet: the message starts with 'unsupported:'; and
        when --timeout or --memlimit is reached)
    6   usage error: a malformed command line
    10  VERIFICATION FAILED
    70  internal error in tarsier (a bug; please report it with the input)

EXAMPLES:
    tarsier examples/overflow.c --overflow-check
        Verify one file, with signed overflow checks.
    tarsier main.c lib.c --unwind 10 --overflow-check
        Verify a two-file program, unwinding loops 10 times, with signed
        overflow checks.
    tarsier prog.c --parse-only -DN=4 -I include --32
        Check that a program is accepted for a 32-bit target.
    tarsier prog.c --show-ir --function worker
        Print the IR of the program that starts at worker().
";

#[cfg(test)]
mod tests {
    use super::MANUAL;
    use crate::args::FLAGS;

    #[test]
    fn manual_explains_every_flag() {
        for flag in FLAGS {
            assert!(MANUAL.contains(flag.name), "the manual does not mention {}", flag.name);
        }
    }

    #[test]
    fn manual_lists_every_exit_code() {
        use crate::exit::Exit::*;
        for exit in [Success, InputError, Unknown, UsageError, Failed, InternalError] {
            let line = format!("\n    {:<4}", exit.code());
            assert!(MANUAL.contains(&line), "the manual does not explain exit code {}", exit.code());
        }
    }
}
