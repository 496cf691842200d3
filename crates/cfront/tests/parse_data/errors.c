int x = ;
// ----
int f(void) {
  return 1
}
// ----
long char c;
// ----
unsigned signed int x;
// ----
int f(void) { if (1) 
// ----
struct { int a; } s = { .a 1 };
// ----
int x = 08;
// ----
int x = 1.0q5;
// ----
int f(int x) { switch (x) { case 1: x++; }
// ----
char *s = "unterminated;
// ----
int y = 'a;
// ----
int z = 0x1.8;
// ----
char c = '';
// ----
int a = @;
// ----
void g(void) { for (int h(void) { return 0; } ; ; ) ; }
// ----
long _BitInt(7) small;
// ----
static extern int two_storage;
// ----
int q = 340282366920938463463374607431768211456;
// ----
int (*)(void) named_missing;
// ----
void f(void) { goto ; }
// ----
#include <stdio.h>
// ----
undeclared_t global;
// ----
void f(void) { my_size x = 0; }
// ----
int f(void) { int a; a b; }
// ----
void f(void) { asm goto ("jmp %l0" :::: out); out: ; }
// ----
typeof_unqual(const int) x;
// ----
int x;
  ##### not a directive
