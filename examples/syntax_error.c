// A missing semicolon: tarsier reports it as file:line:col with a caret and
// exits with status 1 (input error).
int main(void) {
    int x = 1
    return x;
}
