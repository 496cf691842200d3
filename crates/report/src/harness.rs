//! The executable harness (`--harness FILE.c`): a C file that, compiled
//! with the program (`cc program.c FILE.c`), makes the native run follow
//! the counterexample. It defines every body-less function the program
//! relies on for nondeterminism: the nondet-value functions
//! (`__VERIFIER_nondet_*`, `nondet_*`, ...) return the counterexample's
//! values in order, one queue per C type (symex records these inputs by
//! type; calls of the same type keep their order, and calls of different
//! types cannot swap values when C leaves the evaluation order open); the
//! program's own environment functions return theirs, one queue per
//! function; extern globals nobody defines get their initial bytes; the
//! error function aborts; `assume` stops the run quietly and `assert`
//! aborts. Uninitialised locals the counterexample reads come from a
//! rewritten copy of the program file (see [`crate::harness_locals`]); the
//! harness's `main` runs the program's own (renamed in its copy) with the
//! counterexample's command line on the heap, as the model builds it (a
//! constructor runs the program again with it when no copy can be made);
//! library calls whose outcome the model leaves open (a failing
//! `malloc`, `rand`'s result) are renamed in the copy and answered by the
//! harness (see [`crate::harness_library`]), and so are `scanf`, `fscanf`,
//! `gets` and `fgets` (see [`crate::harness_input`]), the descriptor calls
//! whose model answers (see [`crate::harness_descriptors`]), and the stream
//! functions of a program that closes streams (see
//! [`crate::harness_streams`]). What a native run cannot be
//! made to follow is listed in the file's opening comment.

use crate::Report;
use engine::{Counterexample, InputValue, Verdict};
use ir::interp::InputKind;
use ir::{ExprKind, FloatFormat, InstrKind, Program, PropertyClass, SymbolId, SymbolKind, Type, TypeId};
use crate::harness_locals::{self, Site};
use crate::harness_descriptors::DescriptorModel;
use crate::harness_input::InputCalls;
use crate::harness_library::{self, LibraryCalls};
use crate::harness_objects;
use crate::harness_overflow;
use crate::harness_quantifiers::{self, QuantifierSite};
use crate::harness_reads;
use crate::harness_streams;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The opening of the harness's comment line that names a rewritten copy:
/// `REWRITTEN_LINE ORIGINAL => COPY`.
pub const REWRITTEN_LINE: &str = " * Rewritten: ";

/// The opening of the harness's comment line that names the gcc flags its
/// own definitions need, whatever the property: `EXTRA_FLAGS_LINE FLAGS`.
pub const EXTRA_FLAGS_LINE: &str = " * Build also with: ";

/// The files of the harness of `report`'s counterexample, to be written at
/// `path`: the harness first, then the rewritten copies of program files
/// (beside it) when the counterexample reads uninitialised locals, their
/// originals read by `read`. An error when the run found no counterexample.
/// `model_headers` is the folder of the verifier's own headers (the Linux
/// kernel API models), which a program that includes one needs natively too.
pub fn render(report: &Report, path: &Path, model_headers: Option<&Path>, read: &dyn Fn(&str) -> Option<String>) -> Result<Vec<(PathBuf, String)>, String> {
    let Verdict::False(cex) = &report.outcome.verdict else {
        return Err("no harness: the run found no counterexample".into());
    };
    let program = report.program.ok_or("no harness: the program is not available")?;
    let mut harness = Harness::build(program, cex);
    let includes_models = |dir: &Path| program.files.iter().any(|(_, name)| Path::new(name).starts_with(dir));
    harness.model_headers = model_headers.filter(|dir| includes_models(dir)).map(Path::to_path_buf);
    let copies = harness.rewrite_locals(program, cex, path, read);
    let mut files = vec![(path.to_path_buf(), harness.write(report, cex))];
    files.extend(copies);
    Ok(files)
}

/// The command line that builds and runs the harness so that a violation
/// of `class` shows: sanitizers for what a plain run does not catch.
pub fn sanitizer_flags(class: PropertyClass) -> &'static str {
    match class {
        PropertyClass::ArrayBounds
        | PropertyClass::PointerDereference
        | PropertyClass::PointerRelation
        | PropertyClass::InvalidFree
        | PropertyClass::MemoryLeak
        | PropertyClass::MemoryCleanup => "-fsanitize=address,undefined -fno-sanitize-recover=all",
        PropertyClass::SignedOverflow | PropertyClass::Shift | PropertyClass::FloatToInt => {
            "-fsanitize=signed-integer-overflow,shift,float-cast-overflow -fno-sanitize-recover=all"
        }
        PropertyClass::DivisionByZero => "-fsanitize=integer-divide-by-zero -fno-sanitize-recover=all",
        _ => "",
    }
}

/// The values one group of calls returns, in order.
struct Queue {
    /// The C identifier of the queue's storage.
    ident: String,
    values: Vec<(Vec<u8>, String)>,
}

/// A body-less function the harness defines.
struct Definition {
    name: String,
    text: String,
}

#[derive(Default)]
struct Harness {
    /// By queue key: a C type spelling, or `env:NAME` for an environment function.
    queues: BTreeMap<String, Queue>,
    globals: Vec<(String, u64, Vec<u8>)>,
    definitions: Vec<Definition>,
    /// What the native run cannot be made to follow.
    notes: Vec<String>,
    /// Uninitialised locals the rewritten copies fill, numbered in order.
    local_sites: Vec<Site>,
    /// The quantifiers the rewritten copies evaluate at the counterexample's values.
    quantifier_sites: Vec<QuantifierSite>,
    /// Program files and their rewritten copies.
    rewritten: Vec<(String, PathBuf)>,
    /// The new contents `__ESBMC_init_object` gives, in order.
    init_objects: Vec<(Vec<u8>, u8)>,
    /// Whether a definition asks AddressSanitizer about objects.
    asks_about_objects: bool,
    /// The folder of the verifier's model headers, when the program includes one.
    model_headers: Option<PathBuf>,
    /// The library calls the harness answers with the counterexample's outcomes.
    library: LibraryCalls,
    /// The input calls (`scanf`, `gets`) the harness answers with the counterexample's input.
    input: InputCalls,
    /// Whether a rewritten copy performs the discarded read the violation is in.
    performs_read: bool,
    /// The counterexample's values inside the descriptor model, which the harness compiles.
    descriptors: Option<DescriptorModel>,
    /// The stream functions whose calls the copies check for a closed stream.
    checked_streams: BTreeSet<&'static str>,
    command_line: CommandLine,
}

/// The counterexample's `argc` and `argv` of a hosted `main`.
#[derive(Default)]
struct CommandLine {
    argc: Option<u32>,
    /// Per argument: its length and contents.
    lengths: BTreeMap<u32, u32>,
    contents: BTreeMap<u32, (Vec<u8>, u8)>,
}

impl CommandLine {
    /// Files an input named `name` (`argc`, `strlen(argv[i])`, `argv[i]`).
    fn take(&mut self, name: &str, input: &InputValue) {
        let word = |bytes: &[u8]| u32::from_le_bytes(std::array::from_fn(|i| bytes.get(i).copied().unwrap_or(0)));
        let index = |text: &str| text.strip_prefix("argv[")?.strip_suffix(']')?.parse::<u32>().ok();
        if let Some(i) = name.strip_prefix("strlen(").and_then(|n| n.strip_suffix(')')).and_then(index) {
            self.lengths.insert(i, word(&input.bytes));
        } else if let Some(i) = index(name) {
            self.contents.insert(i, (input.bytes.clone(), input.fill));
        } else {
            self.argc = Some(word(&input.bytes));
        }
    }

    /// The arguments' characters, each of its counterexample length.
    fn strings(&self) -> Vec<Vec<u8>> {
        let count = self.argc.unwrap_or(0);
        (0..count)
            .map(|i| {
                let length = self.lengths.get(&i).copied().unwrap_or(0) as usize;
                let (mut bytes, fill) = self.contents.get(&i).cloned().unwrap_or_default();
                bytes.resize(length, fill);
                bytes
            })
            .collect()
    }

    /// The arguments as C strings for the kernel (cut at a NUL they contain, with a note).
    fn arguments(&self, notes: &mut Vec<String>) -> Vec<Vec<u8>> {
        let mut strings = self.strings();
        for (i, bytes) in strings.iter_mut().enumerate() {
            if let Some(nul) = bytes.iter().position(|&b| b == 0) {
                notes.push(format!("argv[{i}] holds a NUL byte at {nul}: the native argument ends there"));
                bytes.truncate(nul);
            }
        }
        strings
    }
}

/// A `main` that runs the program's own (renamed in its copy) with the
/// counterexample's command line built as the model builds it: `argv` a
/// heap array of `argc + 1` pointers ending in NULL, each argument a heap
/// block of its length and a NUL, `envp` an empty list. AddressSanitizer
/// then sees an access past any of them, which the kernel's contiguous
/// strings and arrays would hide.
fn heap_command_line_main(program: &Program, main: ir::FuncId, strings: &[Vec<u8>]) -> String {
    let params = &program.functions[main].params;
    let spellings: Option<Vec<String>> = params.iter().map(|&p| c_type(program, program.symbols[p].ty)).collect();
    let declaration = spellings.map_or(String::new(), |s| s.join(", "));
    let mut out = String::from("/* The counterexample's command line, on the heap as the model has it: the program's main runs with it. */\n");
    let _ = writeln!(out, "int {PROGRAM_MAIN}({declaration});");
    for (i, bytes) in strings.iter().enumerate() {
        let _ = writeln!(out, "static const char harness_arg{i}[] = {{{}}};", byte_list(&[bytes.as_slice(), &[0]].concat()));
    }
    let list = |f: &dyn Fn(usize) -> String| (0..strings.len()).map(f).collect::<Vec<_>>().join(", ");
    let _ = writeln!(out, "static const char *const harness_arguments[] = {{{}}};", list(&|i| format!("harness_arg{i}")));
    let _ = writeln!(out, "static const unsigned long harness_argument_sizes[] = {{{}}};", list(&|i| format!("sizeof harness_arg{i}")));
    // Kept in globals: the blocks stay reachable, as the kernel's are, for LeakSanitizer.
    out += "static char **harness_argv, **harness_envp;\n\nint main(void)\n{\n";
    let _ = writeln!(out, "    int argc = {};", strings.len());
    out += "    harness_argv = malloc((argc + 1) * sizeof *harness_argv);
    harness_envp = malloc(sizeof *harness_envp);
    for (int i = 0; i < argc; i++) {
        harness_argv[i] = malloc(harness_argument_sizes[i]);
        memcpy(harness_argv[i], harness_arguments[i], harness_argument_sizes[i]);
    }
    harness_argv[argc] = 0;
    harness_envp[0] = 0;
";
    let passed = ["argc", "(void *)harness_argv", "(void *)harness_envp"];
    let _ = writeln!(out, "    return {PROGRAM_MAIN}({});\n}}", passed[..params.len().min(3)].join(", "));
    out
}

/// A constructor that runs the program again with the counterexample's
/// command line (glibc passes `main`'s arguments to constructors too).
fn command_line_definition(arguments: &[Vec<u8>]) -> String {
    let mut out = String::from("/* The counterexample's command line: the run starts again with it unless it has it. */
");
    for (i, bytes) in arguments.iter().enumerate() {
        let _ = writeln!(out, "static const char harness_arg{i}[] = {{{}}};", byte_list(&[bytes.as_slice(), &[0]].concat()));
    }
    let list: Vec<String> = (0..arguments.len()).map(|i| format!("(char *)harness_arg{i}, ")).collect();
    let _ = writeln!(out, "static char *const harness_argv[] = {{{}0}};", list.concat());
    out += "int execv(const char *, char *const[]);

";
    out += "__attribute__((constructor)) static void harness_command_line(int argc, char **argv)
{
";
    let _ = writeln!(out, "    int same = argc == {};", arguments.len());
    out += "    for (int i = 0; same && i < argc; i++)
        same = strcmp(argv[i], harness_argv[i]) == 0;
";
    out += "    if (same)
        return;
";
    out += "    execv(\"/proc/self/exe\", harness_argv);
";
    out += "    perror(\"harness: cannot run again with the counterexample's command line\");
    exit(2);
}
";
    out
}

/// Names of the functions that end the run as a failed assertion does.
const ERROR_FUNCTIONS: [&str; 2] = ["reach_error", "__VERIFIER_error"];
const ASSUME_FUNCTIONS: [&str; 4] = ["__VERIFIER_assume", "__ESBMC_assume", "__CPROVER_assume", "__builtin_assume"];
/// Prefixes of uninterpreted functions: any function, so the counterexample's
/// results (equal for equal arguments on its path) are one.
const UNINTERPRETED_PREFIXES: [&str; 2] = ["__CPROVER_uninterpreted_", "__ESBMC_uninterpreted_"];
const ASSERT_FUNCTIONS: [&str; 4] = ["__VERIFIER_assert", "__ESBMC_assert", "__CPROVER_assert", "assert"];
const ATOMIC_FUNCTIONS: [&str; 6] = [
    "__VERIFIER_atomic_begin",
    "__VERIFIER_atomic_end",
    "__ESBMC_atomic_begin",
    "__ESBMC_atomic_end",
    "__CPROVER_atomic_begin",
    "__CPROVER_atomic_end",
];

impl Harness {
    fn build(program: &Program, cex: &Counterexample) -> Harness {
        let mut harness = Harness {
            library: LibraryCalls::of(program, cex),
            input: InputCalls::of(program, cex),
            descriptors: DescriptorModel::of(program, cex),
            ..Harness::default()
        };
        harness.library.notes.clone().into_iter().for_each(|why| harness.note(why));
        let sites = NondetSites::of(program);
        for input in &cex.inputs {
            harness.take_input(program, &sites, input);
        }
        match entry_main(program, cex) {
            Ok(Some(text)) => harness.definitions.push(Definition { name: "main".into(), text }),
            Ok(None) => {}
            Err(why) => harness.note(why),
        }
        for function in program.functions.values().filter(|f| f.body.is_none()) {
            if let Some(text) = harness.definition(program, &function.name, function.ty) {
                harness.definitions.push(Definition { name: function.name.clone(), text });
            }
        }
        harness
    }

    /// The rewritten copies of the program files whose uninitialised locals
    /// the counterexample reads or that use quantifiers, beside the harness at `path`.
    fn rewrite_locals(&mut self, program: &Program, cex: &Counterexample, path: &Path, read: &dyn Fn(&str) -> Option<String>) -> Vec<(PathBuf, String)> {
        let mut locals = harness_locals::sites(program, cex);
        let mut quantifiers = harness_quantifiers::sites(program, cex);
        let renaming = self.file_prefixes(program, read);
        let discarded_read = discarded_read(program, cex, read);
        let files: std::collections::BTreeSet<ir::FileId> =
            locals.keys().chain(quantifiers.keys()).chain(renaming.keys()).chain(discarded_read.iter().map(|(file, _)| file)).copied().collect();
        let mut copies = Vec::new();
        for file in files {
            let sites = locals.remove(&file).unwrap_or_default();
            let quantified = quantifiers.remove(&file).unwrap_or_default();
            let name = program.files.name(file).to_string();
            let read_performed = discarded_read.as_ref().filter(|(f, _)| *f == file).map(|(_, text)| text.clone());
            self.performs_read |= read_performed.is_some();
            let text = read_performed.or_else(|| read(&name)).filter(|_| name.ends_with(".c"));
            let Some(mut text) = text else {
                let names: Vec<&str> = sites.iter().map(|s| s.name.as_str()).chain(quantified.iter().map(|q| q.variable.as_str())).collect();
                self.note(format!("uninitialised locals or quantifiers of {name} ({}): not a program file that can be rewritten", names.join(", ")));
                continue;
            };
            let mut prefix = renaming.get(&file).cloned().unwrap_or_default();
            if discarded_read.as_ref().is_some_and(|(f, _)| *f == file) {
                prefix += &harness_reads::declaration();
            }
            match (quantified.is_empty(), harness_quantifiers::rewritable(&text)) {
                (true, _) => {}
                (false, Ok(())) => {
                    prefix += harness_quantifiers::macros();
                    text = harness_quantifiers::parenthesize_declarations(&text);
                    self.quantifier_sites.extend(quantified);
                }
                (false, Err(why)) => self.note(format!("the quantifiers of {name}: {why}")),
            }
            let done = harness_locals::rewrite(&text, &name, sites, self.local_sites.len(), &prefix);
            done.skipped.into_iter().for_each(|why| self.note(why));
            let Some(rewritten) = done.text else { continue };
            let stem = path.file_stem().map_or("harness".into(), |s| s.to_string_lossy().into_owned());
            let base = Path::new(&name).file_name().map_or("program.c".into(), |s| s.to_string_lossy().into_owned());
            let copy = path.with_file_name(format!("{stem}.{base}"));
            self.local_sites.extend(done.filled);
            self.rewritten.push((name, copy.clone()));
            copies.push((copy, rewritten));
        }
        copies
    }

    /// What the copy of each program file that needs it starts with: the
    /// renaming macros of the library calls the harness answers, the
    /// prototypes of the nondet-value functions the program calls without
    /// declaring them (gcc would read their value as an `int`, tarsier
    /// gives them their ESBMC types), native definitions of ESBMC's
    /// overflow-result built-ins, and C23's `bool` for gcc before 13.
    fn file_prefixes(&mut self, program: &Program, read: &dyn Fn(&str) -> Option<String>) -> BTreeMap<ir::FileId, String> {
        let texts: Vec<(ir::FileId, &str, String, Vec<bool>)> = program
            .files
            .iter()
            .filter(|(_, name)| !name.starts_with(ir::LIBRARY_MODEL_DIR))
            .filter_map(|(file, name)| read(name).map(|text| (file, name.as_str(), harness_locals::code_mask(&text), text)))
            .map(|(file, name, code, text)| (file, name, text, code))
            .collect();
        let undeclared: Vec<(&str, String)> = self
            .definitions
            .iter()
            .filter(|d| is_nondet_function(&d.name))
            .filter_map(|d| Some((d.name.as_str(), c_type(program, return_type(program, &d.name)?)?)))
            .filter(|(_, spelling)| spelling != "int" && spelling != "unsigned int")
            .filter(|(name, _)| !texts.iter().any(|(_, _, text, code)| harness_library::declares(text, code, name)))
            .collect();
        let renamed = self.library.renamed();
        // The library functions the program defines itself: renaming them would clash with the harness's.
        let own: Vec<&str> = program
            .functions
            .values()
            // A function's location may be its header declaration: its body's tells whose it is.
            .filter(|f| f.body.iter().flatten().any(|instr| !instr.loc.is_none() && !program.files.is_library_model(instr.loc)))
            .map(|f| f.name.as_str())
            .collect();
        let mut prefixes = BTreeMap::new();
        for (file, _, text, code) in texts.iter().filter(|(_, name, _, _)| name.ends_with(".c")) {
            let mut prefix = String::new();
            if renamed.iter().any(|function| harness_library::names(text, code, function)) {
                prefix += &self.library.macros();
            }
            if self.input.redirected().iter().any(|function| harness_library::names(text, code, function)) {
                prefix += &self.input.macros();
            }
            if self.descriptors.is_some() && DescriptorModel::names_any(text, code) {
                prefix += &DescriptorModel::macros(&own);
            }
            let taken: Vec<&str> = self.input.redirected().into_iter().chain(own.iter().copied()).collect();
            let streams = harness_streams::checked(text, code, &taken);
            if !streams.is_empty() {
                prefix += &harness_streams::macros(&streams);
                self.checked_streams.extend(streams);
            }
            for (function, spelling) in undeclared.iter().filter(|(function, _)| harness_library::names(text, code, function)) {
                prefix += &format!("{spelling} {function}();\n");
            }
            let renames_main = has_other_main(program) || self.command_line_main(program).is_some();
            if renames_main && program.function("main").is_some_and(|f| program.functions[f].loc.file == *file) {
                prefix += &format!("#define main {PROGRAM_MAIN}\n");
            }
            if harness_overflow::uses_builtins(text, code) {
                prefix += harness_overflow::MACROS;
            }
            if harness_library::names(text, code, "bool") && !text.contains("stdbool.h") {
                prefix += C23_BOOL;
            }
            for (builtin, definition) in CLANG_BUILTINS.iter().filter(|(builtin, _)| harness_library::names(text, code, builtin)) {
                prefix += &format!("#define {builtin}{definition}\n");
            }
            if !prefix.is_empty() {
                prefixes.insert(*file, prefix);
            }
        }
        prefixes
    }

    /// The program's `main` when it is the entry with a command line from the counterexample.
    fn command_line_main(&self, program: &Program) -> Option<ir::FuncId> {
        program.entry.filter(|&f| program.is_hosted_main(f) && self.command_line.argc.is_some())
    }

    /// The command line's definitions: a `main` that builds it on the heap
    /// when the copy of the file defining the program's renamed `main` was
    /// made, else a constructor that runs the program again with it.
    fn command_line_definitions(&mut self, program: &Program) -> String {
        let main = self.command_line_main(program);
        let copied = |f: ir::FuncId| self.rewritten.iter().any(|(name, _)| name == program.files.name(program.functions[f].loc.file));
        match main {
            Some(main) if copied(main) => heap_command_line_main(program, main, &self.command_line.strings()) + "\n",
            Some(_) => command_line_definition(&self.command_line.arguments(&mut self.notes)) + "\n",
            None => String::new(),
        }
    }

    /// Files one input of the counterexample where the native run will ask for it.
    fn take_input(&mut self, program: &Program, sites: &NondetSites, input: &InputValue) {
        if program.files.is_library_model(input.loc) {
            return;
        }
        match &input.kind {
            InputKind::Nondet if program.is_evaluation_order_choice(input.loc) => {
                let at = format!("{}:{}", program.files.name(input.loc.file), input.loc.line);
                self.note(format!("the order of evaluation the counterexample takes for the operands at {at} (C leaves it open, gcc may take another)"));
            }
            InputKind::Nondet => {
                if let Some(&global) = sites.globals.get(&input.loc) {
                    let size = program.symbol_size(global).unwrap_or(input.bytes.len() as u64);
                    self.globals.push((program.symbols[global].name.clone(), size, input.bytes.clone()));
                } else if sites.calls.contains(&input.loc) {
                    if let Some(spelling) = input.ty.and_then(|ty| value_type(program, ty)) {
                        let comment = value_comment(program, input);
                        self.queue(&spelling).values.push((input.bytes.clone(), comment));
                    }
                }
            }
            InputKind::ExternalCall(name) => match program.function(name) {
                Some(f) if is_queued_function(program, f) && input.ty.is_some() => {
                    let comment = value_comment(program, input);
                    self.queue(&format!("env:{name}")).values.push((input.bytes.clone(), comment));
                }
                _ if InputCalls::answers(name) => {}
                _ => self.note(format!("input from `{name}` (stdin and library inputs are not fed)")),
            },
            InputKind::EntryArgument(name) if program.entry.is_some_and(|f| program.is_hosted_main(f)) => self.command_line.take(name, input),
            InputKind::EntryArgument(_) if program.entry.is_some_and(|f| program.functions[f].name != "main") => {}
            InputKind::EntryArgument(name) => self.note(format!("the entry argument `{name}`: pass the counterexample's command line by hand")),
            InputKind::Environment(name) => self.note(format!("the environment string `{name}`: set it by hand")),
            InputKind::Uninitialized(name) if name == harness_objects::INIT_OBJECT_INPUT => self.init_objects.push((input.bytes.clone(), input.fill)),
            InputKind::AllocationFailure | InputKind::Uninitialized(_) | InputKind::NondetCall(_) => {}
        }
    }

    fn note(&mut self, what: String) {
        if !self.notes.contains(&what) {
            self.notes.push(what);
        }
    }

    fn queue(&mut self, key: &str) -> &mut Queue {
        let ident = format!("harness_{}", identifier(key));
        self.queues.entry(key.to_string()).or_insert(Queue { ident, values: Vec::new() })
    }

    /// The C definition of the body-less function `name`, if the harness gives one.
    fn definition(&mut self, program: &Program, name: &str, ty: TypeId) -> Option<String> {
        let Type::Function(sig) = program.types.get(ty) else { return None };
        let ret = sig.ret;
        if ERROR_FUNCTIONS.contains(&name) {
            return Some(format!("void {name}(void)\n{{\n    fputs(\"harness: {name} reached\\n\", stderr);\n    abort();\n}}\n"));
        }
        if ASSUME_FUNCTIONS.contains(&name) {
            return Some(format!(
                "void {name}(int condition)\n{{\n    if (!condition) {{\n        fputs(\"harness: {name} does not hold: the run left the counterexample's path\\n\", stderr);\n        exit(0);\n    }}\n}}\n"
            ));
        }
        if ASSERT_FUNCTIONS.contains(&name) {
            return Some(format!(
                "void {name}(int condition)\n{{\n    if (!condition) {{\n        fputs(\"harness: {name} fails\\n\", stderr);\n        abort();\n    }}\n}}\n"
            ));
        }
        if ATOMIC_FUNCTIONS.contains(&name) {
            return Some(format!("void {name}(void)\n{{\n}}\n"));
        }
        if harness_objects::is_init_object(name) {
            self.asks_about_objects = true;
            return Some(harness_objects::init_object_definition(name, &self.init_objects));
        }
        if let Some(intrinsic) = ir::intrinsics::pointer_intrinsic(name) {
            // A program may call them undeclared, reading an `int`: a
            // `_Bool` result is returned as one, which a declared caller reads too.
            let spelling = c_type(program, ret).map(|s| if s == "_Bool" { "int".to_string() } else { s })?;
            let text = harness_objects::definition(name, intrinsic, &spelling)?;
            self.asks_about_objects = true;
            return Some(text);
        }
        let nondet = is_nondet_function(name);
        let environment = program.function(name).is_some_and(|f| is_queued_function(program, f));
        if !nondet && !environment {
            return None;
        }
        if matches!(program.types.get(ret), Type::Void) {
            return Some(format!("void {name}()\n{{\n}}\n"));
        }
        let spelling = value_type(program, ret)?;
        let key = if nondet { spelling.clone() } else { format!("env:{name}") };
        let ident = self.queue(&key).ident.clone();
        Some(format!("{spelling} {name}()\n{{\n    {spelling} value;\n    HARNESS_NEXT({ident}, value);\n    return value;\n}}\n"))
    }

    fn write(&mut self, report: &Report, cex: &Counterexample) -> String {
        let class = cex.property.class;
        let command_line = report.program.map_or(String::new(), |program| self.command_line_definitions(program));
        let mut out = String::new();
        let _ = writeln!(out, "/* Test harness for the counterexample tarsier found: {} at {} ({}).", class, report.place(cex.loc), cex.property.message);
        let mut extra = Vec::new();
        if self.asks_about_objects && !sanitizer_flags(class).contains("address") {
            extra.push(harness_objects::ADDRESS_SANITIZER.to_string());
        }
        if let Some(dir) = &self.model_headers {
            extra.push(format!("-idirafter {}", dir.display()));
        }
        let unreachable = reaches_unreachable(cex);
        if unreachable {
            extra.push(UNREACHABLE_FLAGS.to_string());
        }
        if class == PropertyClass::SignedOverflow {
            extra.push(NO_OVERFLOW_FOLDING_FLAGS.to_string());
        }
        let extra = extra.join(" ");
        let flags = [extra.as_str(), sanitizer_flags(class)].into_iter().filter(|f| !f.is_empty()).collect::<Vec<_>>().join(" ");
        let _ = writeln!(out, " * Build and run with the program:  cc -g {flags}{}program.c THIS_FILE.c && ./a.out", if flags.is_empty() { "" } else { " " });
        if !extra.is_empty() {
            let _ = writeln!(out, "{EXTRA_FLAGS_LINE}{extra}");
        }
        if flags.contains("address") {
            let _ = writeln!(out, " * (with ASAN_OPTIONS=detect_stack_use_after_return=1 for objects used after their scope).");
        }
        let _ = writeln!(out, " * Nondeterministic values are returned in the counterexample's order, one queue");
        let _ = writeln!(out, " * per type (0 once a queue is used up).");
        if !self.rewritten.is_empty() {
            let _ = writeln!(out, " * Build these copies instead of the program files, with -iquote the original's folder. Each");
            let _ = writeln!(out, " * differs only by a call after each declaration of an uninitialised local the counterexample");
            let _ = writeln!(out, " * reads (C leaves its value indeterminate), by the quantifiers' macros, by renaming the");
            let _ = writeln!(out, " * library functions whose outcome the counterexample chooses (failing or filled allocations,");
            let _ = writeln!(out, " * results of rand, random, clock; the stores of scanf, fscanf, gets, fgets) to this file's");
            let _ = writeln!(out, " * definitions that give that outcome, by renaming the descriptor calls (read, recv, ...) to");
            let _ = writeln!(out, " * tarsier's model of them, compiled here, when the counterexample takes values in it, by");
            let _ = writeln!(out, " * redirecting the stream functions of a program");
            let _ = writeln!(out, " * that calls fclose to definitions that read the FILE first (a closed one is freed), by");
            let _ = writeln!(out, " * prototypes of nondet functions called undeclared, by ESBMC's overflow-result macros, by");
            let _ = writeln!(out, " * renaming the program's main when this file's main runs it (another entry function, or");
            let _ = writeln!(out, " * the counterexample's command line built on the heap), and");
            let _ = writeln!(out, " * by C23's bool for gcc before 13 and clang's non-temporal accesses for gcc:");
            for (original, copy) in &self.rewritten {
                let _ = writeln!(out, "{REWRITTEN_LINE}{original} => {}", copy.display());
            }
        }
        if self.performs_read {
            let _ = writeln!(out, " * The violation is a read whose value the program discards, which gcc leaves out: the copy");
            let _ = writeln!(out, " * performs it ({}).", harness_reads::READ_FUNCTION);
        }
        for note in &self.notes {
            let _ = writeln!(out, " * Not reproduced: {note}.");
        }
        out += " */\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n";
        out += "/* Copies the next value of QUEUE into VALUE (zero when none is left). */\n";
        out += "#define HARNESS_NEXT(queue, value)                                              \\\n";
        out += "    do {                                                                        \\\n";
        out += "        memset(&(value), 0, sizeof(value));                                     \\\n";
        out += "        if (queue##_next < queue##_count)                                       \\\n";
        out += "            memcpy(&(value), queue[queue##_next],                               \\\n";
        out += "                   sizeof(queue[0]) < sizeof(value) ? sizeof(queue[0]) : sizeof(value)); \\\n";
        out += "        queue##_next++;                                                         \\\n";
        out += "    } while (0)\n\n";
        for (key, queue) in &self.queues {
            out += &stand_in_declaration(key).unwrap_or_default();
            out += &write_queue(key, queue);
        }
        for (name, size, bytes) in &self.globals {
            let mut bytes = bytes.clone();
            bytes.resize(*size as usize, 0);
            let _ = writeln!(out, "/* The extern global `{name}`, defined nowhere in the program. */");
            let _ = writeln!(out, "__attribute__((aligned(16))) unsigned char {name}[{}] = {{{}}};\n", size.max(&1), byte_list(&bytes));
        }
        out += &command_line;
        if self.asks_about_objects {
            out += harness_objects::support();
        }
        if !self.quantifier_sites.is_empty() {
            out += &harness_quantifiers::definitions(&self.quantifier_sites);
            out += "\n";
        }
        if !self.local_sites.is_empty() {
            out += &harness_locals::fill_definitions(&self.local_sites);
            out += "\n";
        }
        out += &self.library.definitions();
        out += &self.input.definitions();
        out += &self.descriptors.as_ref().map(DescriptorModel::definitions).unwrap_or_default();
        out += &harness_streams::definitions(&self.checked_streams.iter().copied().collect::<Vec<_>>());
        if unreachable {
            out += UNREACHABLE_DEFINITION;
        }
        if self.performs_read {
            out += &harness_reads::definition();
        }
        for definition in &self.definitions {
            let _ = writeln!(out, "/* {} */", definition.name);
            out += &definition.text;
            out += "\n";
        }
        out
    }
}

/// clang's built-ins gcc lacks whose meaning plain C has, as macros: a
/// non-temporal access is an ordinary one with a hint for the cache.
const CLANG_BUILTINS: [(&str, &str); 2] =
    [("__builtin_nontemporal_load", "(p) (*(p))"), ("__builtin_nontemporal_store", "(v, p) ((void)(*(p) = (v)))")];

/// C23 makes `bool`, `true` and `false` keywords; gcc before 13 knows
/// them in C2x mode only from <stdbool.h>, which gives them the same meaning.
const C23_BOOL: &str = "#if defined __STDC_VERSION__ && __STDC_VERSION__ > 201710L && defined __GNUC__ && __GNUC__ < 13 && !defined __cplusplus
#include <stdbool.h>
#endif
";

/// The gcc flag that keeps the program's overflowing arithmetic for UBSan:
/// gcc's front end folds `-x == -y` into `x == y` and `(d - c) == (d - e)`
/// into `c == e` on the assumption that signed arithmetic never overflows,
/// before UBSan instruments anything. With `-ftrapv` overflow traps
/// instead of being assumed away, so these folds are off, and UBSan's
/// checks (which come first) still report the overflow; the meaning of a
/// program without overflow is unchanged.
const NO_OVERFLOW_FOLDING_FLAGS: &str = "-ftrapv";

/// The gcc flags with which reaching `__builtin_unreachable()` stops the run.
const UNREACHABLE_FLAGS: &str = "-fsanitize=unreachable -fno-sanitize-recover=unreachable";

/// UBSan's options when the violation is reaching `__builtin_unreachable()`:
/// its report aborts, as a failed assertion does.
const UNREACHABLE_DEFINITION: &str = "/* Reaching __builtin_unreachable() is the violation: UBSan reports it and aborts. */
const char *__ubsan_default_options(void)
{
    return \"abort_on_error=1\";
}

";

/// Whether the violation is reaching `__builtin_unreachable()`, which gcc
/// compiles to nothing unless UBSan checks it.
fn reaches_unreachable(cex: &Counterexample) -> bool {
    cex.property.class == PropertyClass::UserAssertion && cex.property.message == ir::intrinsics::UNREACHABLE_REACHED
}

/// The violation's file rewritten to perform the read the violation is
/// in, when that is a read whose value the program discards (a memory
/// property only: AddressSanitizer checks the read).
fn discarded_read(program: &Program, cex: &Counterexample, read: &dyn Fn(&str) -> Option<String>) -> Option<(ir::FileId, String)> {
    if !matches!(cex.property.class, PropertyClass::ArrayBounds | PropertyClass::PointerDereference) || cex.loc.is_none() {
        return None;
    }
    // In a library function's model: its one call in the program.
    let loc = match program.files.is_library_model(cex.loc) {
        true => only_call_site(program, &cex.function)?,
        false => cex.loc,
    };
    let name = program.files.name(loc.file);
    let text = read(name).filter(|_| name.ends_with(".c"))?;
    harness_reads::rewrite(&text, loc).map(|text| (loc.file, text))
}

/// The location of the program's one call of `function`, if it calls it once.
fn only_call_site(program: &Program, function: &str) -> Option<ir::Loc> {
    let mut sites = program.functions.values().flat_map(|f| f.body.iter().flatten()).filter_map(|instr| match &instr.kind {
        InstrKind::Call { callee, .. } if !program.files.is_library_model(instr.loc) => {
            let called = program.called_function(callee)?;
            (program.functions[called].name == function).then_some(instr.loc)
        }
        _ => None,
    });
    let first = sites.next()?;
    sites.all(|loc| loc == first).then_some(first)
}

/// The counterexample's values of nondet-value calls in the order the
/// program makes them, with their C types.
pub(crate) fn nondet_call_values<'c>(program: &Program, cex: &'c Counterexample) -> Vec<(String, &'c InputValue)> {
    let sites = NondetSites::of(program);
    let from_a_call = |i: &&InputValue| matches!(i.kind, InputKind::Nondet) && sites.calls.contains(&i.loc) && !program.files.is_library_model(i.loc);
    cex.inputs.iter().filter(from_a_call).filter_map(|i| Some((c_type(program, i.ty?)?, i))).collect()
}

/// An input's value as a C literal (integers in decimal, `float` and
/// `double` in the shortest decimal that reads back the same bits).
pub(crate) fn c_literal(program: &Program, input: &InputValue) -> String {
    let mut wide = [0u8; 8];
    for (slot, byte) in wide.iter_mut().zip(&input.bytes) {
        *slot = *byte;
    }
    let bits = u64::from_le_bytes(wide);
    match input.ty.map(|ty| program.types.get(ty)) {
        Some(Type::Float(FloatFormat::Single)) => format!("{:?}", f32::from_bits(bits as u32)),
        Some(Type::Float(FloatFormat::Double)) => format!("{:?}", f64::from_bits(bits)),
        _ => value_comment(program, input),
    }
}

/// The return type of the function `name`.
fn return_type(program: &Program, name: &str) -> Option<TypeId> {
    let function = &program.functions[program.function(name)?];
    match program.types.get(function.ty) {
        Type::Function(sig) => Some(sig.ret),
        _ => None,
    }
}

/// Whether `name` is a nondet-value function (ESBMC's and SV-COMP's prefixes).
fn is_nondet_function(name: &str) -> bool {
    ["__VERIFIER_nondet", "nondet_", "__ESBMC_nondet", "__CPROVER_nondet"].iter().any(|p| name.starts_with(p))
}

/// Whether the results of the body-less `func` are queued under its name:
/// the program's own environment functions and uninterpreted functions.
fn is_queued_function(program: &Program, func: ir::FuncId) -> bool {
    let name = &program.functions[func].name;
    ir::external::is_environment_function(program, func) || UNINTERPRETED_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The name the copy gives the program's own `main` when the entry
/// function is another one (the harness's `main` calls that instead).
const PROGRAM_MAIN: &str = "__tarsier_harness_program_main";

/// Whether the program defines a `main` that is not its entry function.
fn has_other_main(program: &Program) -> bool {
    let main = program.function("main").filter(|&f| program.functions[f].body.is_some());
    main.is_some() && main != program.entry
}

/// A `main` that calls the entry function when it is not `main` (the
/// program's own, if any, renamed in its copy), with the counterexample's
/// arguments: scalars, and for a pointer to data without pointers NULL or
/// a heap block of the counterexample's elements and contents.
fn entry_main(program: &Program, cex: &Counterexample) -> Result<Option<String>, String> {
    let Some(entry) = program.entry else { return Ok(None) };
    let function = &program.functions[entry];
    if function.name == "main" {
        return Ok(None);
    }
    let mut text = format!("int {}();\n\nint main(void)\n{{\n", function.name);
    let mut arguments = Vec::new();
    let input = |name: &str| cex.inputs.iter().find(|i| matches!(&i.kind, InputKind::EntryArgument(n) if n == name)).map(|i| i.bytes.clone());
    for (index, &param) in function.params.iter().enumerate() {
        let symbol = &program.symbols[param];
        let name = &symbol.display_name;
        let spelling = c_type(program, symbol.ty).ok_or(format!("the entry parameter `{name}` is not a scalar"))?;
        let element = program.types.pointee(symbol.ty).and_then(|p| program.types.entry_pointee_size(p, program.data_model));
        if let (Some(element), Some(null)) = (element, input(&format!("{name} == NULL"))) {
            let count = input(&format!("elements of *{name}")).unwrap_or_default();
            let count = u32::from_le_bytes(std::array::from_fn(|i| count.get(i).copied().unwrap_or(0))) as u64;
            let contents = input(&format!("*{name}")).unwrap_or_default();
            let _ = writeln!(text, "    static const unsigned char bytes{index}[] = {{{}}};", byte_list(&contents));
            let _ = writeln!(text, "    {spelling} arg{index} = 0;");
            if null.iter().all(|&b| b == 0) {
                let size = count * element;
                let _ = writeln!(text, "    arg{index} = malloc({size});\n    memset(arg{index}, 0, {size});");
                let _ = writeln!(text, "    memcpy(arg{index}, bytes{index}, sizeof bytes{index} < {size} ? sizeof bytes{index} : {size});");
            }
            arguments.push(format!("arg{index}"));
            continue;
        }
        let bytes = input(name).unwrap_or_default();
        let _ = writeln!(text, "    static const unsigned char bytes{index}[] = {{{}}};", byte_list(&bytes));
        let _ = writeln!(text, "    {spelling} arg{index};\n    memset(&arg{index}, 0, sizeof arg{index});");
        let _ = writeln!(text, "    memcpy(&arg{index}, bytes{index}, sizeof bytes{index} < sizeof arg{index} ? sizeof bytes{index} : sizeof arg{index});");
        arguments.push(format!("arg{index}"));
    }
    let _ = writeln!(text, "    {}({});\n    return 0;\n}}", function.name, arguments.join(", "));
    Ok(Some(text))
}

/// Where the instrumented program takes a nondeterministic value: the
/// locations of nondet-value calls (assignments of `nondet` in function
/// bodies) and the globals the program declares but never defines
/// (assigned `nondet` by the initialisation function).
struct NondetSites {
    calls: HashSet<ir::Loc>,
    globals: HashMap<ir::Loc, SymbolId>,
}

impl NondetSites {
    fn of(program: &Program) -> NondetSites {
        let mut sites = NondetSites { calls: HashSet::new(), globals: HashMap::new() };
        for (id, function) in program.functions.iter() {
            for instr in function.body.iter().flatten() {
                let InstrKind::Assign(lhs, rhs) = &instr.kind else { continue };
                if rhs.kind != ExprKind::Nondet {
                    continue;
                }
                match (&lhs.kind, Some(id) == program.init) {
                    (ExprKind::Sym(sym), true) if program.symbols[*sym].kind == SymbolKind::Global => {
                        sites.globals.insert(instr.loc, *sym);
                    }
                    (_, false) => {
                        sites.calls.insert(instr.loc);
                    }
                    _ => {}
                }
            }
        }
        sites
    }
}

fn write_queue(key: &str, queue: &Queue) -> String {
    let width = queue.values.iter().map(|(b, _)| b.len()).max().unwrap_or(1).max(1);
    let ident = &queue.ident;
    let calls = match key.strip_prefix("env:") {
        Some(name) => format!("`{name}`"),
        None => format!("the functions returning {key}"),
    };
    let mut out = format!("/* Values of the calls of {calls}, in order. */\n");
    let _ = writeln!(out, "static const unsigned char {ident}[][{width}] = {{");
    if queue.values.is_empty() {
        out += "    {0},\n";
    }
    for (bytes, comment) in &queue.values {
        let mut bytes = bytes.clone();
        bytes.resize(width, 0);
        let _ = writeln!(out, "    {{{}}}, /* {comment} */", byte_list(&bytes));
    }
    let _ = writeln!(out, "}};");
    let _ = writeln!(out, "static const unsigned long {ident}_count = {};", queue.values.len());
    let _ = writeln!(out, "static unsigned long {ident}_next;\n");
    out
}

pub(crate) fn byte_list(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "0".into();
    }
    bytes.iter().map(|b| format!("0x{b:02x}")).collect::<Vec<_>>().join(", ")
}

/// A C identifier made of `key` (a type spelling or `env:NAME`).
fn identifier(key: &str) -> String {
    key.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// The spelling of a struct or union that stands in for another of `size`
/// bytes: returned the same way (x86-64 returns composites above 16 bytes
/// through a hidden pointer, smaller ones without floating members in
/// integer registers; i386 all through a hidden pointer).
const STAND_IN_PREFIX: &str = "struct harness_bytes_";

/// The C spelling of the type of a value the harness returns: a scalar's
/// own, or for a struct or union the stand-in of its size when it is
/// returned as the stand-in is.
fn value_type(program: &Program, ty: TypeId) -> Option<String> {
    if let Some(spelling) = c_type(program, ty) {
        return Some(spelling);
    }
    let Type::Composite(_) = program.types.get(ty) else { return None };
    let size = program.types.size_of(ty, program.data_model).filter(|&size| size > 0)?;
    let integer_class = size > 16 || program.data_model.pointer_bits() == 32 || !has_floating_member(program, ty);
    integer_class.then(|| format!("{STAND_IN_PREFIX}{size}"))
}

/// Whether a floating-point value lies anywhere inside `ty`.
fn has_floating_member(program: &Program, ty: TypeId) -> bool {
    match program.types.get(ty) {
        Type::Float(_) => true,
        Type::Array(element, _) => has_floating_member(program, *element),
        Type::Composite(id) => program.types.composites[*id].fields.iter().any(|f| has_floating_member(program, f.ty)),
        _ => false,
    }
}

/// The declaration of the stand-in struct a queue key names, if it is one.
fn stand_in_declaration(key: &str) -> Option<String> {
    let size: u64 = key.strip_prefix(STAND_IN_PREFIX)?.parse().ok()?;
    Some(format!("/* Stands in for the program's struct or union of {size} bytes (returned the same way). */
{key} {{ unsigned char bytes[{size}]; }};
"))
}

/// The C spelling of a scalar type, as the harness declares it.
pub(crate) fn c_type(program: &Program, ty: TypeId) -> Option<String> {
    let pointer_bits = program.data_model.pointer_bits();
    Some(match program.types.get(ty) {
        Type::Bool => "_Bool".into(),
        Type::Int { bits, signed } => {
            let base = match bits {
                8 => "char",
                16 => "short",
                32 => "int",
                64 if pointer_bits == 64 => "long",
                64 => "long long",
                128 => "__int128",
                _ => return None,
            };
            match (signed, *bits) {
                (true, 8) => "signed char".into(),
                (true, _) => base.into(),
                (false, _) => format!("unsigned {base}"),
            }
        }
        Type::Float(FloatFormat::Half) => "_Float16".into(),
        Type::Float(FloatFormat::Single) => "float".into(),
        Type::Float(FloatFormat::Double) => "double".into(),
        Type::Float(FloatFormat::X87Extended) => "long double".into(),
        Type::Float(FloatFormat::Quad) => "_Float128".into(),
        Type::Pointer(_) => "void *".into(),
        _ => return None,
    })
}

/// The value of an input in C words, for the comment beside its bytes.
fn value_comment(program: &Program, input: &InputValue) -> String {
    let mut wide = [0u8; 16];
    for (slot, byte) in wide.iter_mut().zip(&input.bytes) {
        *slot = *byte;
    }
    let raw = u128::from_le_bytes(wide);
    let bits = (input.bytes.len() * 8).min(128) as u32;
    match input.ty.map(|ty| program.types.get(ty)) {
        Some(Type::Int { signed: true, .. }) if bits > 0 => {
            let shift = 128 - bits;
            (((raw << shift) as i128) >> shift).to_string()
        }
        Some(Type::Int { signed: false, .. } | Type::Bool) => raw.to_string(),
        _ => format!("bits 0x{raw:x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_made_of_type_spellings() {
        assert_eq!(identifier("unsigned int"), "unsigned_int");
        assert_eq!(identifier("env:get_value"), "env_get_value");
        assert_eq!(identifier("void *"), "void__");
    }

    #[test]
    fn queues_pad_short_values_and_count_them() {
        let queue = Queue { ident: "harness_int".into(), values: vec![(vec![5], "5".into()), (vec![1, 2, 3, 4], "x".into())] };
        let text = write_queue("int", &queue);
        assert!(text.contains("static const unsigned char harness_int[][4] = {"), "{text}");
        assert!(text.contains("{0x05, 0x00, 0x00, 0x00}, /* 5 */"), "{text}");
        assert!(text.contains("harness_int_count = 2;"), "{text}");
    }

    #[test]
    fn sanitizers_follow_the_property() {
        assert!(sanitizer_flags(PropertyClass::ArrayBounds).contains("address"));
        assert!(sanitizer_flags(PropertyClass::SignedOverflow).contains("signed-integer-overflow"));
        assert_eq!(sanitizer_flags(PropertyClass::UserAssertion), "");
    }
}
