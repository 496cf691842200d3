/* fenv.h: the rounding mode. It lives in the verifier's variable
   __ESBMC_rounding_mode (0 to nearest-even, 1 to nearest-away, 2 upward,
   3 downward, 4 toward zero), which symex and the interpreter read at
   every floating-point operation; the front end starts it at the mode of
   the command line. The FE_ constants are glibc's for x86. The exception
   flags are not modelled. */

extern int __ESBMC_rounding_mode;

/* 0 on success; an unknown mode leaves the current one and returns 1. */
int
fesetround(int mode)
{
    if (mode == 0)
        __ESBMC_rounding_mode = 0;
    else if (mode == 0x400)
        __ESBMC_rounding_mode = 3;
    else if (mode == 0x800)
        __ESBMC_rounding_mode = 2;
    else if (mode == 0xc00)
        __ESBMC_rounding_mode = 4;
    else
        return 1;
    return 0;
}

/* To nearest-away has no FE_ constant: -1 for it. */
int
fegetround(void)
{
    switch (__ESBMC_rounding_mode) {
    case 1:
        return -1;
    case 2:
        return 0x800;
    case 3:
        return 0x400;
    case 4:
        return 0xc00;
    default:
        return 0;
    }
}
