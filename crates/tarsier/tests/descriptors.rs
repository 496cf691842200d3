//! The file-descriptor models (`open`, `socket`, `pipe`, `read`, `recv`,
//! `lseek`, `close`, ...) end to end: the environment behind a descriptor
//! may answer anything its contract allows, while what the program did to
//! a descriptor decides the errors the kernel must give.

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
