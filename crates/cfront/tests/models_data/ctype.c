// The ctype.h models (C locale) against the standard's character classes,
// both through glibc's macros (the classification table) and as functions.
#include <ctype.h>

#define CHECK(c) do { if (!(c)) return __LINE__; } while (0)

static int (*const by_call[])(int) = {isalnum, isalpha, isdigit, isspace, isupper, islower, isxdigit, ispunct};

int main(void) {
    CHECK(isdigit('7') && !isdigit('a') && !isdigit(-1));
    CHECK(isalpha('q') && isalpha('Q') && !isalpha('1') && !isalpha(200));
    CHECK(isalnum('z') && isalnum('0') && !isalnum('_'));
    CHECK(isspace(' ') && isspace('\t') && isspace('\n') && isspace('\v') && isspace('\f') && isspace('\r') && !isspace('x'));
    CHECK(isupper('A') && !isupper('a') && islower('a') && !islower('A'));
    CHECK(isxdigit('f') && isxdigit('F') && isxdigit('9') && !isxdigit('g'));
    CHECK(ispunct('!') && !ispunct(' ') && !ispunct('a'));
    CHECK(isprint(' ') && !isprint('\n') && isgraph('~') && !isgraph(' '));
    CHECK(iscntrl(0) && iscntrl(127) && !iscntrl('a'));
    CHECK(isblank(' ') && isblank('\t') && !isblank('\n'));
    CHECK(toupper('a') == 'A' && toupper('Z') == 'Z' && toupper('1') == '1' && toupper(-1) == -1);
    CHECK(tolower('A') == 'a' && tolower('z') == 'z' && tolower(200) == 200);
    for (int c = -1; c < 256; c++) {
        int digit = c >= '0' && c <= '9';
        int upper = c >= 'A' && c <= 'Z';
        int lower = c >= 'a' && c <= 'z';
        int space = c == ' ' || (c >= '\t' && c <= '\r');
        int xdigit = digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        int punct = c > ' ' && c < 127 && !digit && !upper && !lower;
        int expected[] = {digit || upper || lower, upper || lower, digit, space, upper, lower, xdigit, punct};
        for (int k = 0; k < 8; k++)
            CHECK(!by_call[k](c) == !expected[k]);
    }
    return 0;
}
