//! The file-descriptor models (`open`, `socket`, `pipe`, `read`, `recv`,
//! `lseek`, `close`, ...) end to end: the environment behind a descriptor
//! may answer anything its contract allows, while what the program did to
//! a descriptor decides the errors the kernel must give. Directory
//! streams (`opendir`, `readdir`, `closedir`) likewise.

mod common;

use common::assert_verdict;

const SUCCESSFUL: &str = "VERIFICATION SUCCESSFUL";
const FAILED: &str = "VERIFICATION FAILED";

#[test]
fn received_bytes_stay_within_the_requested_length() {
    let guarded = r#"
#include <sys/socket.h>
int main(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  unsigned char buf[16];
  long n = recv(fd, buf, sizeof buf, 0);
  if (n > 0)
    return buf[n - 1];
  return 0;
}
"#;
    assert_verdict("recv-guarded", guarded, &[], SUCCESSFUL);
    let off_by_one = r#"
#include <sys/socket.h>
int main(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  unsigned char buf[16];
  long n = recv(fd, buf, sizeof buf, 0);
  if (n > 0)
    return buf[n];
  return 0;
}
"#;
    assert_verdict("recv-off-by-one", off_by_one, &[], FAILED);
}

#[test]
fn the_kernel_errors_follow_what_the_program_did() {
    let errors = r#"
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
  int fds[2];
  if (pipe(fds) != 0)
    return 0;
  assert(fds[0] != fds[1]);
  assert(lseek(fds[0], 0, SEEK_SET) == -1 && errno == ESPIPE);
  char c;
  assert(recv(fds[0], &c, 1, 0) == -1 && errno == ENOTSOCK);
  assert(write(fds[0], &c, 1) == -1 && errno == EBADF);
  close(fds[1]);
  assert(write(fds[1], &c, 1) == -1 && errno == EBADF);
  assert(read(-1, &c, 1) == -1);
  int fd = open("f", O_WRONLY);
  if (fd >= 0)
    assert(read(fd, &c, 1) == -1 && fd != fds[0]);
  return 0;
}
"#;
    assert_verdict("descriptor-errors", errors, &[], SUCCESSFUL);
    let may_fail = r#"
#include <assert.h>
#include <fcntl.h>
int main(void) {
  int fd = open("f", O_RDONLY);
  assert(fd >= 0);
  return 0;
}
"#;
    assert_verdict("open-may-fail", may_fail, &[], FAILED);
    let read_overflow = r#"
#include <fcntl.h>
#include <unistd.h>
int main(void) {
  char buf[4];
  int fd = open("f", O_RDONLY);
  if (fd < 0)
    return 0;
  long n = read(fd, buf, 8);
  return n;
}
"#;
    assert_verdict("read-overflow", read_overflow, &[], FAILED);
}

#[test]
fn a_directory_stream_lists_well_formed_entries_until_it_is_closed() {
    let entries = r#"
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
int main(void) {
  assert(opendir("") == NULL && errno == ENOENT);
  DIR *d = opendir("/tmp");
  if (!d) {
    assert(errno > 0);
    return 0;
  }
  struct dirent *e = readdir(d);
  if (e)
    assert(e->d_name[0] != 0 && e->d_type != 3 && e->d_type <= 14);
  closedir(d);
  return 0;
}
"#;
    assert_verdict("readdir-entries", entries, &["--memory-leak-check"], SUCCESSFUL);
    let after_close = r#"
#include <dirent.h>
int main(void) {
  DIR *d = opendir(".");
  if (!d)
    return 0;
  closedir(d);
  readdir(d);
  return 0;
}
"#;
    assert_verdict("readdir-after-closedir", after_close, &[], FAILED);
    // glibc allocates the stream.
    let unclosed = r#"
#include <dirent.h>
int main(void) {
  DIR *d = opendir(".");
  return d == 0;
}
"#;
    assert_verdict("opendir-leak", unclosed, &["--memory-leak-check"], FAILED);
    // An entry's name may hold bytes no directory gives ('/'): no FALSE through one.
    let named = r#"
#include <assert.h>
#include <dirent.h>
int main(void) {
  DIR *d = opendir(".");
  if (!d)
    return 0;
  struct dirent *e = readdir(d);
  if (e)
    assert(e->d_name[0] == '.');
  closedir(d);
  return 0;
}
"#;
    assert_verdict("readdir-untrusted", named, &[], "VERIFICATION UNKNOWN");
}

/// Linux opens a file in access mode 3 (`O_ACCMODE`: permission to read
/// and write is checked) with a descriptor that neither reads nor writes:
/// gcc and glibc give a descriptor, then EBADF for read and write, while
/// lseek works.
#[test]
fn access_mode_three_opens_a_descriptor_that_neither_reads_nor_writes() {
    let program = |last: &str| {
        format!(
            r#"
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
int main(void) {{
  int fd = open("/dev/null", 3);
  if (fd < 0)
    return 0;
  char c;
  assert(read(fd, &c, 1) == -1 && errno == EBADF);
  assert(write(fd, &c, 1) == -1 && errno == EBADF);
  {last}
  return 0;
}}
"#
        )
    };
    assert_verdict("open-mode-three", &program(""), &[], SUCCESSFUL);
    let opens = r#"
#include <assert.h>
#include <fcntl.h>
int main(void) {
  assert(open("/dev/null", 3) == -1);
  return 0;
}
"#;
    assert_verdict("open-mode-three-opens", opens, &[], FAILED);
    assert_verdict("open-mode-three-seeks", &program("assert(lseek(fd, 0, SEEK_CUR) == -1);"), &[], FAILED);
}
