#define _GNU_SOURCE
// The string.h models against the values the C standard requires.
#include <string.h>
#include <stdlib.h>

#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

static int sign(int x) { return (x > 0) - (x < 0); }

int main(void) {
    char buf[16];
    CHECK(strlen("") == 0);
    CHECK(strlen("hello") == 5);
    CHECK(strnlen("hello", 3) == 3);
    CHECK(strnlen("hi", 9) == 2);
    CHECK(strcpy(buf, "abc") == buf && strcmp(buf, "abc") == 0);
    CHECK(strcat(buf, "de") == buf && strcmp(buf, "abcde") == 0);
    CHECK(strncat(buf, "xyz", 2) == buf && strcmp(buf, "abcdexy") == 0);
    memset(buf, 'q', sizeof buf);
    CHECK(strncpy(buf, "ab", 5) == buf);
    CHECK(buf[0] == 'a' && buf[1] == 'b' && buf[2] == 0 && buf[4] == 0 && buf[5] == 'q');
    strncpy(buf, "abcdef", 3);
    CHECK(buf[2] == 'c' && buf[3] == 0);
    CHECK(strcmp("abc", "abc") == 0);
    CHECK(sign(strcmp("abc", "abd")) == -1);
    CHECK(sign(strcmp("abd", "abc")) == 1);
    CHECK(sign(strcmp("ab", "abc")) == -1);
    CHECK(sign(strcmp("\xff", "a")) == 1);
    CHECK(strncmp("abcx", "abcy", 3) == 0);
    CHECK(sign(strncmp("abcx", "abcy", 4)) == -1);
    CHECK(strncmp("a", "b", 0) == 0);
    CHECK(memcmp("abc", "abd", 2) == 0);
    CHECK(sign(memcmp("abc", "abd", 3)) == -1);
    CHECK(sign(memcmp("\x80", "\x01", 1)) == 1);
    const char *s = "hello";
    CHECK(strchr(s, 'l') == s + 2);
    CHECK(strchr(s, 0) == s + 5);
    CHECK(strchr(s, 'z') == NULL);
    CHECK(strrchr(s, 'l') == s + 3);
    CHECK(strrchr(s, 0) == s + 5);
    CHECK(strrchr(s, 'z') == NULL);
    CHECK(memchr(s, 'l', 5) == s + 2);
    CHECK(memchr(s, 'o', 4) == NULL);
    CHECK(strstr(s, "ll") == s + 2);
    CHECK(strstr(s, "") == s);
    CHECK(strstr(s, "lo!") == NULL);
    CHECK(strstr("", "") != NULL);
    CHECK(strspn("aabxa", "ab") == 3);
    CHECK(strcspn("abcxd", "xd") == 3);
    char *copy = strdup(s);
    CHECK(copy != NULL && copy != s && strcmp(copy, s) == 0);
    free(copy);
    char words[] = "- This, a sample.";
    CHECK(strcmp(strtok(words, " ,.-"), "This") == 0);
    CHECK(strcmp(strtok(0, " ,.-"), "a") == 0);
    CHECK(strcmp(strtok(0, " ,.-"), "sample") == 0);
    CHECK(strtok(0, " ,.-") == 0);
    char pair[] = "k=v";
    char *rest;
    CHECK(strtok_r(pair, "=", &rest) == pair && strcmp(rest, "v") == 0);
    const char *hay = "This is";
    CHECK(strpbrk(hay, "aeiou") == hay + 2 && strpbrk(hay, "xyz") == 0);
    const char *abc = "abcabc";
    CHECK(memrchr(abc, 'b', 6) == abc + 4 && memrchr(abc, 'b', 1) == 0);
    char *prefix = strndup("hello", 3);
    CHECK(prefix != 0 && strcmp(prefix, "hel") == 0);
    free(prefix);
    CHECK(strcasecmp("HeLLo", "hello") == 0 && sign(strcasecmp("a", "B")) < 0);
    CHECK(strncasecmp("ABcd", "abCX", 3) == 0 && sign(strncasecmp("ab", "AC", 2)) < 0);
    CHECK(strerror(2) != 0);
    CHECK(sign(strcoll("a", "b")) < 0 && strcoll("x", "x") == 0);
    return 0;
}
