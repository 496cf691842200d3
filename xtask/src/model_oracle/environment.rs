//! The `environment` family: the models of what the program does not
//! control, and the single-thread models. Environment cases (`admits` and
//! `contract` tasks) run the calls natively on this machine, with stdin
//! at /dev/null: streams (`fopen`, `fgetc`, `fgets`, `fread`, `fwrite`,
//! `fseek`, `fileno`, `fclose`, `getchar`, `scanf`), descriptors (`open`,
//! `creat`, `read`, `write`, `lseek`, `close`, `pipe`, `socket`),
//! directories (`opendir`, `readdir`, `closedir`, `rewinddir`), clocks
//! and sleeps, `rand`/`random`/`rand_r`, `lrand48`/`mrand48`/`drand48`,
//! `getenv`, `setlocale`,
//! `strerror`. Exact cases run what is deterministic: `fmemopen` streams
//! (glibc 2.36's behaviour, modelled exactly), the pthread and C11 mutex,
//! key and once functions in a program without threads, and `atexit`.

use super::{c_string, Case, Family, Kind};
use crate::oracle::Rng;

pub fn case(rng: &mut Rng) -> Case {
    match rng.below(12) {
        0..=2 => memory_stream(rng),
        3 => mutexes(rng),
        4 => streams(rng),
        5 => descriptors(rng),
        6 => clocks(rng),
        7 => random_numbers(rng),
        8 => directories(rng),
        9 => locale_and_text(rng),
        10 => keys_and_once(rng),
        _ => input(rng),
    }
}

fn environment_case() -> Case {
    let mut case = Case::new(Family::Environment, Kind::Environment);
    case.include("stdio.h");
    case.include("string.h");
    case.include("errno.h");
    case
}

/// An fmemopen stream over a small buffer, then a random sequence of
/// stream calls; every result, the stream's flags and position, and the
/// buffer are observed.
fn memory_stream(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Environment, Kind::Exact);
    case.include("stdio.h");
    case.include("stdio_ext.h");
    case.include("string.h");
    let size = 1 + rng.below(12);
    let content = super::strings::text(rng, size);
    let mode = rng.pick(&["r", "w", "a", "r+", "w+", "a+", "rb", "wb+"]);
    case.uses("fmemopen");
    case.code(format!("char buffer[{}] = {}; char line[16]; memset(line, 'x', sizeof line);", size + 1, c_string(&content)));
    case.code(format!("FILE *f = fmemopen(buffer, {size}, \"{mode}\");"));
    case.assume("f != 0");
    for _ in 0..1 + rng.below(6) {
        let (function, call) = match rng.below(16) {
            0 => ("fputs", format!("fputs({}, f)", c_string(&super::strings::text(rng, 5)))),
            1 => ("fputc", format!("fputc({}, f)", rng.pick(&["'k'", "0", "0x1ff"]))),
            2 => ("fgetc", "fgetc(f)".to_string()),
            3 => ("fgets", format!("fgets(line, {}, f) == 0 ? -1LL : (long long)oracle_hash(line, sizeof line)", rng.pick(&[1, 2, 5, 16]))),
            4 => ("fread", format!("fread(line, {}, {}, f)", rng.pick(&[1, 2, 3]), rng.below(5))),
            5 => ("fwrite", format!("fwrite(\"abcdef\", {}, {}, f)", rng.pick(&[1, 2]), rng.below(4))),
            6 => ("fseek", format!("fseek(f, {}, {})", rng.below(14) as i64 - 3, rng.pick(&["SEEK_SET", "SEEK_CUR", "SEEK_END", "7"]))),
            7 => ("ftell", "ftell(f)".to_string()),
            8 => ("fflush", "fflush(f)".to_string()),
            9 => ("feof", "feof(f)".to_string()),
            10 => ("ferror", "ferror(f)".to_string()),
            11 => ("clearerr", "(clearerr(f), 0)".to_string()),
            12 => ("rewind", "(rewind(f), 0)".to_string()),
            13 => ("__fpending", "__fpending(f)".to_string()),
            14 => ("__freading", "__freading(f) * 2 + __fwriting(f)".to_string()),
            _ => {
                let (function, call) = rng.pick(&[("getc", "getc(f)"), ("getc_unlocked", "getc_unlocked(f)"), ("putc_unlocked", "putc_unlocked('u', f)"), ("fileno_unlocked", "fileno_unlocked(f)")]);
                (function, call.to_string())
            }
        };
        // The `_unlocked` forms are the same functions in one thread.
        let unlocked = format!("{function}_unlocked");
        let (function, call) = if UNLOCKED.contains(&unlocked.as_str()) && rng.chance(3) {
            (unlocked.clone(), call.replacen(&format!("{function}("), &format!("{unlocked}("), 1))
        } else {
            (function.to_string(), call)
        };
        if function == "__freading" {
            case.uses("__fwriting");
        }
        case.uses(function);
        case.observe(call);
    }
    if rng.chance(2) {
        case.uses("fclose");
        case.observe("fclose(f)");
    }
    case.observe(format!("oracle_hash(buffer, {})", size + 1));
    case
}

/// The `_unlocked` stream functions glibc declares.
const UNLOCKED: [&str; 10] = [
    "fputs_unlocked",
    "fputc_unlocked",
    "fgetc_unlocked",
    "fgets_unlocked",
    "fread_unlocked",
    "fwrite_unlocked",
    "fflush_unlocked",
    "feof_unlocked",
    "ferror_unlocked",
    "clearerr_unlocked",
];

/// Mutexes of each kind locked, tried and unlocked in one thread.
fn mutexes(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Environment, Kind::Exact);
    case.include("pthread.h");
    if rng.chance(4) {
        case.include("threads.h");
        for function in ["mtx_init", "mtx_lock", "mtx_trylock", "mtx_unlock", "mtx_destroy"] {
            case.uses(function);
        }
        let kind = rng.pick(&["mtx_plain", "mtx_recursive", "mtx_timed", "mtx_plain | mtx_recursive"]);
        case.code("mtx_t m;");
        case.observe(format!("mtx_init(&m, {kind})"));
        let recursive = kind.contains("recursive");
        for _ in 0..1 + rng.below(4) {
            let call = rng.pick(&["mtx_trylock(&m)", "mtx_unlock(&m)", if recursive { "mtx_lock(&m)" } else { "mtx_trylock(&m)" }]);
            case.observe(call);
        }
        case.code("mtx_destroy(&m);");
        return case;
    }
    for function in ["pthread_mutexattr_init", "pthread_mutexattr_settype", "pthread_mutexattr_gettype", "pthread_mutex_init", "pthread_mutex_trylock", "pthread_mutex_unlock", "pthread_mutex_destroy", "pthread_mutexattr_destroy"] {
        case.uses(function);
    }
    let kind = rng.pick(&["PTHREAD_MUTEX_NORMAL", "PTHREAD_MUTEX_RECURSIVE", "PTHREAD_MUTEX_ERRORCHECK", "PTHREAD_MUTEX_DEFAULT", "7"]);
    case.code("pthread_mutexattr_t attr; pthread_mutex_t m; int kind = -1;");
    case.observe("pthread_mutexattr_init(&attr)");
    case.observe(format!("pthread_mutexattr_settype(&attr, {kind})"));
    case.observe("(pthread_mutexattr_gettype(&attr, &kind), kind)");
    case.observe("pthread_mutex_init(&m, &attr)");
    let lock_may_block = !kind.contains("RECURSIVE") && !kind.contains("ERRORCHECK");
    for _ in 0..1 + rng.below(5) {
        let call = match rng.below(3) {
            0 => "pthread_mutex_trylock(&m)",
            1 => "pthread_mutex_unlock(&m)",
            // Locking a held normal mutex would block forever: lock only
            // when that cannot happen.
            _ if lock_may_block => "pthread_mutex_trylock(&m)",
            _ => {
                case.uses("pthread_mutex_lock");
                "pthread_mutex_lock(&m)"
            }
        };
        case.observe(call);
    }
    case.observe("pthread_mutex_destroy(&m) == 0");
    case.observe("pthread_mutexattr_destroy(&attr)");
    case
}

/// Thread-specific keys, once, the calling thread, joins, atexit.
fn keys_and_once(rng: &mut Rng) -> Case {
    let mut case = Case::new(Family::Environment, Kind::Exact);
    if rng.chance(2) {
        case.include("threads.h");
        case.top.push_str("static int @calls;\nstatic void @init(void) { @calls++; }\n");
        for function in ["tss_create", "tss_set", "tss_get", "tss_delete", "call_once", "thrd_current", "thrd_equal"] {
            case.uses(function);
        }
        case.code("tss_t key; static int value; once_flag once = ONCE_FLAG_INIT;");
        case.observe("tss_create(&key, 0)");
        case.observe("tss_get(key) == 0");
        case.observe("tss_set(key, &value)");
        case.observe("tss_get(key) == &value");
        case.code("tss_delete(key);");
        case.observe("(call_once(&once, @init), call_once(&once, @init), @calls)");
        case.observe("thrd_equal(thrd_current(), thrd_current()) != 0");
        return case;
    }
    case.include("pthread.h");
    case.include("stdlib.h");
    case.top.push_str("static int @calls;\nstatic void @init(void) { @calls++; }\nstatic void @handler(void) {}\n");
    for function in ["pthread_key_create", "pthread_setspecific", "pthread_getspecific", "pthread_key_delete", "pthread_once", "pthread_equal", "pthread_self", "pthread_join", "pthread_detach", "atexit"] {
        case.uses(function);
    }
    case.code("pthread_key_t key; static int value; pthread_once_t once = PTHREAD_ONCE_INIT;");
    case.observe("pthread_key_create(&key, 0)");
    case.observe("pthread_getspecific(key) == 0");
    case.observe("pthread_setspecific(key, &value)");
    case.observe("pthread_getspecific(key) == &value");
    if rng.chance(2) {
        case.observe("pthread_key_delete(key)");
        case.observe("pthread_key_delete(key)");
        case.observe("pthread_setspecific(key, &value)");
    }
    // One call per observation: `calls` read in the same expression as
    // the calls that change it may be read before them (C11 6.5.2.2p10).
    case.observe("pthread_once(&once, @init)");
    case.observe("pthread_once(&once, @init)");
    case.observe("@calls");
    case.observe("pthread_equal(pthread_self(), pthread_self()) != 0");
    case.observe("atexit(@handler)");
    case
}

fn streams(rng: &mut Rng) -> Case {
    let mut case = environment_case();
    let path = rng.pick(&["/dev/null", "/dev/null", "/nonexistent/file", ""]);
    let mode = rng.pick(&["r", "w", "a+", "rb", "re", "q"]);
    let open = rng.pick(&["fopen", "fopen", "fopen64"]);
    case.uses(open);
    case.code(format!("errno = 0; FILE *f = {open}({}, \"{mode}\");", c_string(path.as_bytes())));
    case.observe("f != 0");
    case.observe("errno");
    case.code("if (f != 0) {");
    case.observe("f->_flags");
    case.observe("f->_flags2");
    case.uses("fileno");
    case.contract("fileno(f) >= 0");
    case.code("char block[8]; memset(block, 'x', sizeof block);");
    for _ in 0..rng.below(4) {
        let (function, call, contract) = match rng.below(5) {
            0 => ("fgetc", "fgetc(f)", "1"),
            1 => ("fread", "fread(block, 2, 3, f)", "result >= 0 && result <= 3"),
            2 => ("fwrite", "fwrite(\"ab\", 1, 2, f)", "result >= 0 && result <= 2"),
            3 => rng.pick(&[("fseek", "fseek(f, 0, SEEK_SET)", "1"), ("fseeko", "fseeko(f, 0, SEEK_END)", "1"), ("fseeko64", "fseeko64(f, 0, SEEK_CUR)", "1"), ("ftello", "ftello(f) + 1", "1")]),
            _ => ("fgets", "fgets(block, sizeof block, f) != 0", "1"),
        };
        case.uses(function);
        case.code(format!("{{ long long result = (long long)({call});"));
        case.observe("result");
        case.contract(contract);
        case.code("}");
    }
    case.uses("fclose");
    case.observe("fclose(f)");
    case.code("}");
    case
}

fn descriptors(rng: &mut Rng) -> Case {
    let mut case = environment_case();
    case.include("fcntl.h");
    case.include("unistd.h");
    case.include("sys/socket.h");
    case.code("char block[8]; memset(block, 'x', sizeof block); int fd = -1, fds[2] = {-1, -1};");
    match rng.below(4) {
        0 => {
            case.uses("open");
            let flags = rng.pick(&["O_RDONLY", "O_WRONLY", "O_RDWR", "O_RDONLY | O_CLOEXEC", "3"]);
            case.code(format!("errno = 0; fd = open(\"/dev/null\", {flags});"));
        }
        1 => {
            case.uses("creat");
            case.code("errno = 0; fd = creat(\"/nonexistent/file\", 0600);");
        }
        2 => {
            case.uses("pipe");
            case.code("errno = 0; int piped = pipe(fds); fd = fds[0];");
            // Natively the read end must not block: nothing writes to it.
            case.include("fcntl.h");
            case.native("if (piped == 0) fcntl(fds[0], F_SETFL, O_NONBLOCK);");
            case.observe("piped");
        }
        _ => {
            case.uses("socket");
            case.code("errno = 0; fd = socket(AF_UNIX, SOCK_STREAM, 0);");
        }
    }
    case.observe("fd >= 0");
    case.observe("errno");
    for _ in 0..1 + rng.below(3) {
        // Each call's contract: a count at most the length asked for; a
        // seek's offset is the object's (the model does not know it).
        let (function, call, highest) = rng.pick(&[
            ("read", "read(fd, block, sizeof block)", "8"),
            ("write", "write(fds[1] >= 0 ? fds[1] : fd, \"xyz\", 3)", "3"),
            ("lseek", "lseek(fd, 0, SEEK_CUR)", "LONG_MAX"),
            ("recv", "recv(fd, block, sizeof block, MSG_DONTWAIT)", "8"),
            ("send", "send(fd, \"ab\", 2, MSG_DONTWAIT | MSG_NOSIGNAL)", "2"),
            ("close", "close(fd)", "0"),
            ("read", "read(-1, block, 1)", "1"),
        ]);
        case.uses(function);
        case.include("limits.h");
        case.code(format!("{{ errno = 0; long result = {call};"));
        case.observe("result");
        case.observe("errno");
        case.contract(format!("result >= -1 && result <= {highest}"));
        case.code("}");
    }
    case
}

fn clocks(rng: &mut Rng) -> Case {
    let mut case = environment_case();
    case.include("time.h");
    case.include("unistd.h");
    case.code("struct timespec ts = {0, 0}; time_t stored = 0;");
    let (function, call, contract) = rng.pick(&[
        ("time", "time(&stored) == stored", "1"),
        ("clock", "clock() >= 0", "1"),
        ("clock_gettime", "clock_gettime(CLOCK_MONOTONIC, &ts)", "ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000"),
        ("clock_gettime", "clock_gettime(12345, &ts)", "1"),
        ("timespec_get", "timespec_get(&ts, TIME_UTC)", "ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000"),
        ("sleep", "sleep(0)", "1"),
        ("usleep", "usleep(0)", "1"),
        ("nanosleep", "nanosleep(&ts, 0)", "1"),
        ("nanosleep", "(ts.tv_nsec = 1000000000, nanosleep(&ts, 0))", "1"),
    ]);
    case.uses(function);
    case.code(format!("errno = 0; long result = (long)({call});"));
    case.observe("result");
    case.observe("errno");
    case.contract(contract);
    case
}

fn random_numbers(rng: &mut Rng) -> Case {
    let mut case = environment_case();
    case.include("stdlib.h");
    let seed = rng.below(1000);
    let (function, setup, call, contract) = rng.pick(&[
        ("rand", "srand", "rand()", "value >= 0 && value <= RAND_MAX"),
        ("random", "srandom", "random()", "value >= 0 && value <= RAND_MAX"),
        ("rand_r", "srand", "rand_r(&state)", "value >= 0 && value <= RAND_MAX"),
        ("lrand48", "srand48", "lrand48()", "value >= 0 && value <= 2147483647L"),
        ("mrand48", "srand48", "mrand48()", "value >= -2147483648L && value <= 2147483647L"),
        // drand48's 48 bits, scaled back to an integer.
        ("drand48", "srand48", "(long)(drand48() * 281474976710656.0)", "value >= 0 && value < 281474976710656L"),
    ]);
    case.uses(function);
    case.uses(setup);
    case.code(format!("unsigned state = {seed}u; {setup}({seed}u); long value = {call};"));
    case.observe("value");
    case.contract(contract);
    case
}

fn directories(rng: &mut Rng) -> Case {
    let mut case = environment_case();
    case.include("dirent.h");
    let name = rng.pick(&["/", "/dev", "", "/nonexistent"]);
    case.uses("opendir");
    case.code(format!("errno = 0; DIR *dir = opendir({});", c_string(name.as_bytes())));
    case.observe("dir != 0");
    case.observe("errno");
    case.code("if (dir != 0) {");
    for _ in 0..rng.below(3) {
        let (function, entry) = if rng.chance(2) { ("readdir", "dirent") } else { ("readdir64", "dirent64") };
        case.uses(function);
        case.code(format!("{{ struct {entry} *entry = {function}(dir);"));
        case.observe("entry != 0");
        case.contract("entry == 0 || (entry->d_name[0] != 0 && strlen(entry->d_name) < 256)");
        case.code("}");
    }
    if rng.chance(3) {
        case.uses("rewinddir");
        case.code("rewinddir(dir);");
    }
    case.uses("closedir");
    case.observe("closedir(dir)");
    case.code("}");
    case
}

fn locale_and_text(rng: &mut Rng) -> Case {
    let mut case = environment_case();
    case.include("locale.h");
    case.include("stdlib.h");
    match rng.below(3) {
        0 => {
            case.uses("setlocale");
            let (category, name) = (rng.pick(&["LC_ALL", "LC_COLLATE", "LC_CTYPE", "LC_TIME", "13", "-1"]), rng.pick(&["\"C\"", "\"POSIX\"", "0", "\"\"", "\"xx_YY.nonexistent\""]));
            case.code(format!("errno = 0; char *name = setlocale({category}, {name});"));
            case.observe("name == 0 ? 0 : oracle_string(name)");
            case.contract("name == 0 || strlen(name) < 256");
            if rng.chance(2) {
                case.uses("strcoll");
                case.observe("strcoll(\"abc\", \"abd\") < 0");
            }
        }
        1 => {
            case.uses("strerror");
            let error = rng.pick(&["0", "EINVAL", "ENOENT", "12345", "-1"]);
            case.code(format!("char *text = strerror({error});"));
            case.observe("oracle_string(text)");
            case.contract("text != 0 && strlen(text) < 64");
        }
        _ => {
            case.uses("getenv");
            let name = rng.pick(&["\"PATH\"", "\"\"", "\"ORACLE_SURELY_UNSET\"", "\"LC_ALL\""]);
            case.code(format!("char *value = getenv({name});"));
            case.observe("value == 0 ? 0 : oracle_string(value)");
            case.contract("value == 0 || strlen(value) < 131072");
        }
    }
    case
}

/// Reading stdin, which is /dev/null natively.
fn input(rng: &mut Rng) -> Case {
    let mut case = environment_case();
    case.code("char line[8]; int number = -5; memset(line, 'x', sizeof line);");
    let (function, call, contract) = rng.pick(&[
        ("getchar", "getchar()", "result >= -1 && result <= 255"),
        ("fgetc", "fgetc(stdin)", "result >= -1 && result <= 255"),
        ("getc", "getc(stdin)", "result >= -1 && result <= 255"),
        ("fgets", "fgets(line, sizeof line, stdin) != 0", "line[7] == 'x' || line[7] == 0"),
        ("scanf", "scanf(\"%d\", &number) + 1", "result >= 0 && result <= 2"),
        ("fread", "fread(line, 1, 4, stdin)", "result >= 0 && result <= 4"),
        ("fscanf", "fscanf(stdin, \"%7s\", line) + 1", "result >= 0 && result <= 2"),
        ("perror", "(errno = 5, perror(\"oracle\"), errno)", "1"),
        ("error", "(error(0, 0, \"%d\", 3), 0)", "1"),
    ]);
    if function == "error" {
        case.include("error.h");
    }
    case.uses(function);
    case.code(format!("long long result = (long long)({call});"));
    case.observe("result");
    case.contract(contract);
    case
}
