void lit(void) {
    x = 42; x = 42u; x = 42UL; x = 42llu; x = 42LL; x = 0x2A; x = 052; x = 0b101010; x = 0; x = 3i;
    x = 18446744073709551615ULL; x = 340282366920938463463374607431768211455;
    y = 1.5; y = 1.5f; y = 1.5L; y = .5e-3; y = 1e10; y = 0x1.8p3; y = 0x1p-2f; y = 1.0f16; y = 2.0f128; y = 3.0F32x; y = 4.0f64x; y = 1.0i; y = 1.0if; y = 5.0d;
    c = 'a'; c = '\n'; c = '\0'; c = '\377'; c = '\x7f'; c = '\''; c = 'ab'; c = L'\u00e9'; c = u'x'; c = U'\U0001F600'; c = u8'z'; c = '\e';
    s = "plain"; s = "con" "cat" "enation"; s = "tab\there\n"; s = L"wide"; s = u8"utf8 \u00e9"; s = u"utf16 \U0001F600"; s = U"utf32";
    s = "a" L"b"; s = "\x41\102"; s = "é";
}
