// SPDX-License-Identifier: MIT
/*
 * cudart_strings.c - compare cudaGetErrorName()/cudaGetErrorString() of
 * libuvm with NVIDIA's libcudart.so.13 for every code from -64 to 20000
 * and a few extremes. Both libraries are dlopen()ed RTLD_LOCAL, so each
 * dlsym() reaches its own implementation. Neither call needs a GPU.
 *
 * usage: cudart_strings LIBUVM_SO LIBCUDART_SO   (TAP output)
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

typedef const char *(*strfn)(int);

int main(int argc, char **argv)
{
	static const int extra[] = { INT_MIN, -1000000, 100000, 1000000, INT_MAX };
	strfn un, us, cn, cs;
	void *u, *c;
	int code, i, bad = 0, known = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s LIBUVM LIBCUDART\n", argv[0]);
		return 2;
	}
	u = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	c = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
	if (!u || !c) {
		printf("Bail out! dlopen: %s\n", dlerror());
		return 1;
	}
	un = (strfn)dlsym(u, "cudaGetErrorName");
	us = (strfn)dlsym(u, "cudaGetErrorString");
	cn = (strfn)dlsym(c, "cudaGetErrorName");
	cs = (strfn)dlsym(c, "cudaGetErrorString");
	if (!un || !us || !cn || !cs || un == cn) {
		printf("Bail out! dlsym\n");
		return 1;
	}

	for (i = -64; i <= 20000 + (int)(sizeof(extra) / sizeof(extra[0])); i++) {
		code = i <= 20000 ? i : extra[i - 20001];
		if (strcmp(un(code), cn(code)) || strcmp(us(code), cs(code))) {
			printf("# code %d: libuvm \"%s\"/\"%s\", libcudart \"%s\"/\"%s\"\n",
			       code, un(code), us(code), cn(code), cs(code));
			bad++;
		}
		if (strcmp(cn(code), "unrecognized error code"))
			known++;
	}
	printf("# %d codes known to libcudart, %d mismatches\n", known, bad);
	return bad ? 1 : 0;
}
