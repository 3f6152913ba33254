/* frontends/c/vector_ia32.c — the __builtin_ia32_* that gcc's SSE/SSE2
 * intrinsics headers (xmmintrin.h, emmintrin.h) call, with their signatures
 * and how lower_vector.c lowers each: generic CG vector ops where CG has them,
 * else the LLVM x86 intrinsic of the same instruction. */
#include <string.h>

#include "lower.h"
#include "vector.h"

/* signature codes: b w d q = vectors of 16 char, 8 short, 4 int, 2 long long;
 * f g = 4 float, 2 double; i int, I int immediate, s short, u unsigned, l long
 * long, F float, D double, p void *, c const void *, v void */
CType *ia32_code_type(char c) {
  /* made anew each time: types live in the translation unit's arena, and a
   * cache here outlived the first unit of `kitcc a.c b.c` (zstd's datagen) */
  static const char codes[] = "bwdqfg";
  const char *at = strchr(codes, c);
  if (c && at) {
    CType *const elem[6] = {ty_char, ty_short, ty_int, ty_llong, ty_float, ty_double};
    int k = (int)(at - codes);
    return type_vector(elem[k], 16 / elem[k]->size);
  }
  switch (c) {
  case 's': return ty_short;
  case 'u': return ty_uint;
  case 'l': return ty_llong;
  case 'F': return ty_float;
  case 'D': return ty_double;
  case 'p': return type_ptr(ty_void);
  case 'c': return type_ptr(type_qualified(ty_void, Q_CONST));
  case 'v': return ty_void;
  default: return ty_int;
  }
}

#define LL(n, s, f) {n, s, IA_LLVM, 0, f}
static const IaBuiltin table[] = {
    /* SSE2 integer */
    LL("pmovmskb128", "i:b", "llvm.x86.sse2.pmovmskb.128"),
    LL("packsswb128", "b:w,w", "llvm.x86.sse2.packsswb.128"),
    LL("packssdw128", "w:d,d", "llvm.x86.sse2.packssdw.128"),
    LL("packuswb128", "b:w,w", "llvm.x86.sse2.packuswb.128"),
    LL("pmaddwd128", "d:w,w", "llvm.x86.sse2.pmadd.wd"),
    LL("pmulhw128", "w:w,w", "llvm.x86.sse2.pmulh.w"),
    LL("pmulhuw128", "w:w,w", "llvm.x86.sse2.pmulhu.w"),
    LL("psadbw128", "q:b,b", "llvm.x86.sse2.psad.bw"),
    LL("pavgb128", "b:b,b", "llvm.x86.sse2.pavg.b"),
    LL("pavgw128", "w:w,w", "llvm.x86.sse2.pavg.w"),
    LL("paddsb128", "b:b,b", "llvm.sadd.sat.v16i8"),
    LL("paddsw128", "w:w,w", "llvm.sadd.sat.v8i16"),
    LL("paddusb128", "b:b,b", "llvm.uadd.sat.v16i8"),
    LL("paddusw128", "w:w,w", "llvm.uadd.sat.v8i16"),
    LL("psubsb128", "b:b,b", "llvm.ssub.sat.v16i8"),
    LL("psubsw128", "w:w,w", "llvm.ssub.sat.v8i16"),
    LL("psubusb128", "b:b,b", "llvm.usub.sat.v16i8"),
    LL("psubusw128", "w:w,w", "llvm.usub.sat.v8i16"),
    LL("psllwi128", "w:w,i", "llvm.x86.sse2.pslli.w"),
    LL("pslldi128", "d:d,i", "llvm.x86.sse2.pslli.d"),
    LL("psllqi128", "q:q,i", "llvm.x86.sse2.pslli.q"),
    LL("psrlwi128", "w:w,i", "llvm.x86.sse2.psrli.w"),
    LL("psrldi128", "d:d,i", "llvm.x86.sse2.psrli.d"),
    LL("psrlqi128", "q:q,i", "llvm.x86.sse2.psrli.q"),
    LL("psrawi128", "w:w,i", "llvm.x86.sse2.psrai.w"),
    LL("psradi128", "d:d,i", "llvm.x86.sse2.psrai.d"),
    LL("psllw128", "w:w,w", "llvm.x86.sse2.psll.w"),
    LL("pslld128", "d:d,d", "llvm.x86.sse2.psll.d"),
    LL("psllq128", "q:q,q", "llvm.x86.sse2.psll.q"),
    LL("psrlw128", "w:w,w", "llvm.x86.sse2.psrl.w"),
    LL("psrld128", "d:d,d", "llvm.x86.sse2.psrl.d"),
    LL("psrlq128", "q:q,q", "llvm.x86.sse2.psrl.q"),
    LL("psraw128", "w:w,w", "llvm.x86.sse2.psra.w"),
    LL("psrad128", "d:d,d", "llvm.x86.sse2.psra.d"),
    {"pmaxsw128", "w:w,w", IA_BIN, KIT_CG_OP_SMAX, NULL},
    {"pminsw128", "w:w,w", IA_BIN, KIT_CG_OP_SMIN, NULL},
    {"pmaxub128", "b:b,b", IA_BIN, KIT_CG_OP_UMAX, NULL},
    {"pminub128", "b:b,b", IA_BIN, KIT_CG_OP_UMIN, NULL},
    {"pandn128", "q:q,q", IA_FBIT, -1, NULL},
    {"pmuludq128", "q:d,d", IA_MULUDQ, 0, NULL},
    {"pshufd", "d:d,I", IA_SHUF, SH_PSHUFD, NULL},
    {"pshuflw", "w:w,I", IA_SHUF, SH_PSHUFLW, NULL},
    {"pshufhw", "w:w,I", IA_SHUF, SH_PSHUFHW, NULL},
    {"punpcklbw128", "b:b,b", IA_SHUF, SH_UNPACKLO, NULL},
    {"punpcklwd128", "w:w,w", IA_SHUF, SH_UNPACKLO, NULL},
    {"punpckldq128", "d:d,d", IA_SHUF, SH_UNPACKLO, NULL},
    {"punpcklqdq128", "q:q,q", IA_SHUF, SH_UNPACKLO, NULL},
    {"punpckhbw128", "b:b,b", IA_SHUF, SH_UNPACKHI, NULL},
    {"punpckhwd128", "w:w,w", IA_SHUF, SH_UNPACKHI, NULL},
    {"punpckhdq128", "d:d,d", IA_SHUF, SH_UNPACKHI, NULL},
    {"punpckhqdq128", "q:q,q", IA_SHUF, SH_UNPACKHI, NULL},
    {"movq128", "q:q", IA_SHUF, SH_MOVQ, NULL},
    {"pslldqi128", "q:q,I", IA_BSHIFT, 0, NULL},
    {"psrldqi128", "q:q,I", IA_BSHIFT, 1, NULL},
    {"vec_ext_v4si", "i:d,I", IA_EXT, 0, NULL},
    {"vec_ext_v2di", "l:q,I", IA_EXT, 0, NULL},
    {"vec_ext_v8hi", "s:w,I", IA_EXT, 0, NULL},
    {"vec_ext_v16qi", "i:b,I", IA_EXT, 0, NULL},
    {"vec_ext_v4sf", "F:f,I", IA_EXT, 0, NULL},
    {"vec_ext_v2df", "D:g,I", IA_EXT, 0, NULL},
    {"vec_set_v8hi", "w:w,i,I", IA_SET, 0, NULL},
    {"movnti", "v:p,i", IA_STORE, 0, NULL},
    {"movnti64", "v:p,l", IA_STORE, 0, NULL},
    {"movntdq", "v:p,q", IA_STORE, 0, NULL},
    {"movntpd", "v:p,g", IA_STORE, 0, NULL},
    {"movntps", "v:p,f", IA_STORE, 0, NULL},
    LL("maskmovdqu", "v:b,b,p", "llvm.x86.sse2.maskmov.dqu"),
    LL("clflush", "v:c", "llvm.x86.sse2.clflush"),
    LL("lfence", "v:", "llvm.x86.sse2.lfence"),
    LL("mfence", "v:", "llvm.x86.sse2.mfence"),
    LL("sfence", "v:", "llvm.x86.sse.sfence"),
    LL("pause", "v:", "llvm.x86.sse2.pause"),
    /* conversions */
    {"cvtdq2ps", "f:d", IA_CONV, KIT_CG_OP_SITOFP, NULL},
    {"cvtdq2pd", "g:d", IA_CONV, KIT_CG_OP_SITOFP, NULL},
    {"cvtps2pd", "g:f", IA_CONV, KIT_CG_OP_FPEXT, NULL},
    LL("cvtps2dq", "d:f", "llvm.x86.sse2.cvtps2dq"),
    LL("cvttps2dq", "d:f", "llvm.x86.sse2.cvttps2dq"),
    LL("cvtpd2dq", "d:g", "llvm.x86.sse2.cvtpd2dq"),
    LL("cvttpd2dq", "d:g", "llvm.x86.sse2.cvttpd2dq"),
    LL("cvtpd2ps", "f:g", "llvm.x86.sse2.cvtpd2ps"),
    LL("cvtsd2si", "i:g", "llvm.x86.sse2.cvtsd2si"),
    LL("cvtsd2si64", "l:g", "llvm.x86.sse2.cvtsd2si64"),
    LL("cvttsd2si", "i:g", "llvm.x86.sse2.cvttsd2si"),
    LL("cvttsd2si64", "l:g", "llvm.x86.sse2.cvttsd2si64"),
    LL("cvtss2si", "i:f", "llvm.x86.sse.cvtss2si"),
    LL("cvtss2si64", "l:f", "llvm.x86.sse.cvtss2si64"),
    LL("cvttss2si", "i:f", "llvm.x86.sse.cvttss2si"),
    LL("cvttss2si64", "l:f", "llvm.x86.sse.cvttss2si64"),
    {"cvtsi2sd", "g:g,i", IA_SCALAR, KIT_CG_OP_SITOFP, NULL},
    {"cvtsi642sd", "g:g,l", IA_SCALAR, KIT_CG_OP_SITOFP, NULL},
    {"cvtsi2ss", "f:f,i", IA_SCALAR, KIT_CG_OP_SITOFP, NULL},
    {"cvtsi642ss", "f:f,l", IA_SCALAR, KIT_CG_OP_SITOFP, NULL},
    {"cvtsd2ss", "f:f,g", IA_SCALAR, KIT_CG_OP_FPTRUNC, NULL},
    {"cvtss2sd", "g:g,f", IA_SCALAR, KIT_CG_OP_FPEXT, NULL},
    /* float */
    LL("maxps", "f:f,f", "llvm.x86.sse.max.ps"),
    LL("minps", "f:f,f", "llvm.x86.sse.min.ps"),
    LL("maxss", "f:f,f", "llvm.x86.sse.max.ss"),
    LL("minss", "f:f,f", "llvm.x86.sse.min.ss"),
    LL("maxpd", "g:g,g", "llvm.x86.sse2.max.pd"),
    LL("minpd", "g:g,g", "llvm.x86.sse2.min.pd"),
    LL("maxsd", "g:g,g", "llvm.x86.sse2.max.sd"),
    LL("minsd", "g:g,g", "llvm.x86.sse2.min.sd"),
    LL("rcpps", "f:f", "llvm.x86.sse.rcp.ps"),
    LL("rsqrtps", "f:f", "llvm.x86.sse.rsqrt.ps"),
    LL("rcpss", "f:f", "llvm.x86.sse.rcp.ss"),
    LL("rsqrtss", "f:f", "llvm.x86.sse.rsqrt.ss"),
    LL("movmskps", "i:f", "llvm.x86.sse.movmsk.ps"),
    LL("movmskpd", "i:g", "llvm.x86.sse2.movmsk.pd"),
    {"sqrtps", "f:f", IA_UN, KIT_CG_OP_FSQRT, NULL},
    {"sqrtpd", "g:g", IA_UN, KIT_CG_OP_FSQRT, NULL},
    {"sqrtss", "f:f", IA_SCALAR, KIT_CG_OP_FSQRT, NULL},
    {"sqrtsd", "g:g", IA_SCALAR, KIT_CG_OP_FSQRT, NULL},
    {"addss", "f:f,f", IA_SCALAR, KIT_CG_OP_FADD, NULL},
    {"subss", "f:f,f", IA_SCALAR, KIT_CG_OP_FSUB, NULL},
    {"mulss", "f:f,f", IA_SCALAR, KIT_CG_OP_FMUL, NULL},
    {"divss", "f:f,f", IA_SCALAR, KIT_CG_OP_FDIV, NULL},
    {"addsd", "g:g,g", IA_SCALAR, KIT_CG_OP_FADD, NULL},
    {"subsd", "g:g,g", IA_SCALAR, KIT_CG_OP_FSUB, NULL},
    {"mulsd", "g:g,g", IA_SCALAR, KIT_CG_OP_FMUL, NULL},
    {"divsd", "g:g,g", IA_SCALAR, KIT_CG_OP_FDIV, NULL},
    {"andps", "f:f,f", IA_FBIT, KIT_CG_OP_AND, NULL},
    {"orps", "f:f,f", IA_FBIT, KIT_CG_OP_OR, NULL},
    {"xorps", "f:f,f", IA_FBIT, KIT_CG_OP_XOR, NULL},
    {"andnps", "f:f,f", IA_FBIT, -1, NULL},
    {"andpd", "g:g,g", IA_FBIT, KIT_CG_OP_AND, NULL},
    {"orpd", "g:g,g", IA_FBIT, KIT_CG_OP_OR, NULL},
    {"xorpd", "g:g,g", IA_FBIT, KIT_CG_OP_XOR, NULL},
    {"andnpd", "g:g,g", IA_FBIT, -1, NULL},
    {"shufps", "f:f,f,I", IA_SHUF, SH_SHUFPS, NULL},
    {"shufpd", "g:g,g,I", IA_SHUF, SH_SHUFPD, NULL},
    {"unpcklps", "f:f,f", IA_SHUF, SH_UNPACKLO, NULL},
    {"unpckhps", "f:f,f", IA_SHUF, SH_UNPACKHI, NULL},
    {"unpcklpd", "g:g,g", IA_SHUF, SH_UNPACKLO, NULL},
    {"unpckhpd", "g:g,g", IA_SHUF, SH_UNPACKHI, NULL},
    {"movhlps", "f:f,f", IA_SHUF, SH_MOVHL, NULL},
    {"movlhps", "f:f,f", IA_SHUF, SH_MOVLH, NULL},
    {"movss", "f:f,f", IA_SHUF, SH_MOVS, NULL},
    {"movsd", "g:g,g", IA_SHUF, SH_MOVS, NULL},
    {"loadhpd", "g:g,c", IA_LOADLANE, 1, NULL},
    {"loadlpd", "g:g,c", IA_LOADLANE, 0, NULL},
    /* packed compares: lanes of all ones or zeros ("swap": the operands exchanged) */
    {"cmpeqps", "f:f,f", IA_FCMP, KIT_CG_FOEQ, NULL},
    {"cmpltps", "f:f,f", IA_FCMP, KIT_CG_FOLT, NULL},
    {"cmpleps", "f:f,f", IA_FCMP, KIT_CG_FOLE, NULL},
    {"cmpgtps", "f:f,f", IA_FCMP, KIT_CG_FOLT, "swap"},
    {"cmpgeps", "f:f,f", IA_FCMP, KIT_CG_FOLE, "swap"},
    {"cmpneqps", "f:f,f", IA_FCMP, KIT_CG_FUNE, NULL},
    {"cmpnltps", "f:f,f", IA_FCMP, KIT_CG_FUGE, NULL},
    {"cmpnleps", "f:f,f", IA_FCMP, KIT_CG_FUGT, NULL},
    {"cmpngtps", "f:f,f", IA_FCMP, KIT_CG_FUGE, "swap"},
    {"cmpngeps", "f:f,f", IA_FCMP, KIT_CG_FUGT, "swap"},
    {"cmpordps", "f:f,f", IA_FCMP, KIT_CG_FORD, NULL},
    {"cmpunordps", "f:f,f", IA_FCMP, KIT_CG_FUNO, NULL},
    {"cmpeqpd", "g:g,g", IA_FCMP, KIT_CG_FOEQ, NULL},
    {"cmpltpd", "g:g,g", IA_FCMP, KIT_CG_FOLT, NULL},
    {"cmplepd", "g:g,g", IA_FCMP, KIT_CG_FOLE, NULL},
    {"cmpgtpd", "g:g,g", IA_FCMP, KIT_CG_FOLT, "swap"},
    {"cmpgepd", "g:g,g", IA_FCMP, KIT_CG_FOLE, "swap"},
    {"cmpneqpd", "g:g,g", IA_FCMP, KIT_CG_FUNE, NULL},
    {"cmpnltpd", "g:g,g", IA_FCMP, KIT_CG_FUGE, NULL},
    {"cmpnlepd", "g:g,g", IA_FCMP, KIT_CG_FUGT, NULL},
    {"cmpngtpd", "g:g,g", IA_FCMP, KIT_CG_FUGE, "swap"},
    {"cmpngepd", "g:g,g", IA_FCMP, KIT_CG_FUGT, "swap"},
    {"cmpordpd", "g:g,g", IA_FCMP, KIT_CG_FORD, NULL},
    {"cmpunordpd", "g:g,g", IA_FCMP, KIT_CG_FUNO, NULL},
    LL("comieq", "i:f,f", "llvm.x86.sse.comieq.ss"),
    LL("comilt", "i:f,f", "llvm.x86.sse.comilt.ss"),
    LL("comile", "i:f,f", "llvm.x86.sse.comile.ss"),
    LL("comigt", "i:f,f", "llvm.x86.sse.comigt.ss"),
    LL("comige", "i:f,f", "llvm.x86.sse.comige.ss"),
    LL("comineq", "i:f,f", "llvm.x86.sse.comineq.ss"),
    LL("ucomieq", "i:f,f", "llvm.x86.sse.ucomieq.ss"),
    LL("ucomilt", "i:f,f", "llvm.x86.sse.ucomilt.ss"),
    LL("ucomile", "i:f,f", "llvm.x86.sse.ucomile.ss"),
    LL("ucomigt", "i:f,f", "llvm.x86.sse.ucomigt.ss"),
    LL("ucomige", "i:f,f", "llvm.x86.sse.ucomige.ss"),
    LL("ucomineq", "i:f,f", "llvm.x86.sse.ucomineq.ss"),
    LL("comisdeq", "i:g,g", "llvm.x86.sse2.comieq.sd"),
    LL("comisdlt", "i:g,g", "llvm.x86.sse2.comilt.sd"),
    LL("comisdle", "i:g,g", "llvm.x86.sse2.comile.sd"),
    LL("comisdgt", "i:g,g", "llvm.x86.sse2.comigt.sd"),
    LL("comisdge", "i:g,g", "llvm.x86.sse2.comige.sd"),
    LL("comisdneq", "i:g,g", "llvm.x86.sse2.comineq.sd"),
    LL("ucomisdeq", "i:g,g", "llvm.x86.sse2.ucomieq.sd"),
    LL("ucomisdlt", "i:g,g", "llvm.x86.sse2.ucomilt.sd"),
    LL("ucomisdle", "i:g,g", "llvm.x86.sse2.ucomile.sd"),
    LL("ucomisdgt", "i:g,g", "llvm.x86.sse2.ucomigt.sd"),
    LL("ucomisdge", "i:g,g", "llvm.x86.sse2.ucomige.sd"),
    LL("ucomisdneq", "i:g,g", "llvm.x86.sse2.ucomineq.sd"),
};
#undef LL

const IaBuiltin *ia32_find(const char *name) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(table[i].name, name)) return &table[i];
  return NULL;
}

const IaBuiltin *ia32_get(int index) {
  return index >= 0 && (size_t)index < sizeof table / sizeof table[0] ? &table[index] : NULL;
}

int ia32_index(const IaBuiltin *b) { return (int)(b - table); }
