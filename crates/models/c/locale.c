/* locale.h and the locale-dependent comparison strcoll. A program starts
   in the "C" locale; setlocale to "C" or "POSIX" stays there, to any other
   name (including "", the environment's choice) it may fail (NULL, the
   locale is not installed) or switch to a locale whose rules are unknown.
   An unknown collation orders strings arbitrarily; unknown character
   classes or number formats would invalidate the C-locale models of
   ctype.h and the conversions, so switching those is not modelled.
   Categories are glibc's: LC_CTYPE 0, LC_NUMERIC 1, LC_TIME 2, LC_COLLATE
   3, LC_MONETARY 4, LC_MESSAGES 5, LC_ALL 6, and 7 to 12. */

int __VERIFIER_nondet_tarsier_int(void);
int strcmp(const char *a, const char *b);
extern int __tarsier_errno;

/* Reached when setlocale switches the character classes, number or
   monetary formats to a locale other than "C"; the locale name is an
   argument so that a verdict resting on the call is not trusted either
   way. */
void __tarsier_unmodelled_locale_switch(const char *locale);

int __tarsier_collation_unknown;
int __tarsier_locale_switched;
/* The name of a locale other than "C" is unknown text: no unit defines
   this array. */
extern char __tarsier_locale_name[32];

char *
setlocale(int category, const char *locale)
{
    if (category < 0 || category > 12) {
        __tarsier_errno = 22; /* EINVAL */
        return 0;
    }
    if (locale == 0) {
        if (!__tarsier_locale_switched)
            return "C";
        __tarsier_locale_name[31] = 0;
        return __tarsier_locale_name;
    }
    int to_c = strcmp(locale, "C") == 0 || strcmp(locale, "POSIX") == 0;
    if (to_c) {
        if (category == 3 || category == 6)
            __tarsier_collation_unknown = 0;
        return "C";
    }
    if (__VERIFIER_nondet_tarsier_int()) {
        __tarsier_errno = 2; /* ENOENT */
        return 0;
    }
    if (category == 0 || category == 1 || category == 4 || category == 6)
        __tarsier_unmodelled_locale_switch(locale);
    if (category == 3 || category == 6)
        __tarsier_collation_unknown = 1;
    __tarsier_locale_switched = 1;
    __tarsier_locale_name[31] = 0;
    return __tarsier_locale_name;
}

/* strcmp's order in the "C" locale; in another locale all that is known
   is that equal strings compare equal. */
int
strcoll(const char *a, const char *b)
{
    int order = strcmp(a, b);
    if (!__tarsier_collation_unknown || order == 0)
        return order;
    return __VERIFIER_nondet_tarsier_int();
}
