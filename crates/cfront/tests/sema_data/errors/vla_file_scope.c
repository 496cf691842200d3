// error at 3: variable length array outside a function body
int n = 3;
int arr[n];
int main(void) { return 0; }
