/*
 * bcryptprimitives.c: a stand-in for Windows' bcryptprimitives.dll, for
 * running Go binaries under wine 8 only (scripts/wine-test.sh builds it
 * with mingw-w64 into a throwaway prefix; nothing ships it).
 *
 * Go 1.24 and later read all their randomness through ProcessPrng, which
 * real Windows 10 and later export from bcryptprimitives.dll. Wine 8 has no
 * such DLL, so every Go program stops at start-up. Here ProcessPrng calls
 * advapi32's RtlGenRandom (exported as SystemFunction036), which wine backs
 * with the host's system random source. Like the real one it never fails.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	/* RtlGenRandom takes a ULONG length: feed big requests in pieces. */
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
	(void)inst;
	(void)reason;
	(void)reserved;
	return TRUE;
}
