// One stub per function the registry does not know (unknown_functions.h):
// stub i puts i in r11 (no argument register) and jumps to the common part,
// which saves every register a call may pass arguments in (rdi, rsi, rdx,
// rcx, r8, r9, xmm0-7, and al for variadic calls), records the call, restores
// them and jumps to the function below, so that the stack the function sees
// is the caller's own: stack arguments and the return address are untouched.

#include "layers/trace/unknown_functions.h"

  .text
  .globl strata_unknown_function_stubs
  .hidden strata_unknown_function_stubs
  .balign 16
strata_unknown_function_stubs:
  .set stub_number, 0
  .rept STRATA_UNKNOWN_FUNCTION_STUBS
  .balign STRATA_UNKNOWN_FUNCTION_STUB_BYTES
  endbr64
  movl $stub_number, %r11d
  jmp strata_unknown_function_common
  .set stub_number, stub_number + 1
  .endr

  .balign 16
strata_unknown_function_common:
  pushq %rbp
  movq %rsp, %rbp
  subq $192, %rsp  // rsp is 16-byte aligned here: the call below needs it
  movq %rdi, 0(%rsp)
  movq %rsi, 8(%rsp)
  movq %rdx, 16(%rsp)
  movq %rcx, 24(%rsp)
  movq %r8, 32(%rsp)
  movq %r9, 40(%rsp)
  movq %rax, 48(%rsp)
  movq %r11, 56(%rsp)
  movaps %xmm0, 64(%rsp)
  movaps %xmm1, 80(%rsp)
  movaps %xmm2, 96(%rsp)
  movaps %xmm3, 112(%rsp)
  movaps %xmm4, 128(%rsp)
  movaps %xmm5, 144(%rsp)
  movaps %xmm6, 160(%rsp)
  movaps %xmm7, 176(%rsp)
  movl %r11d, %edi
  call strata_record_unknown_call
  movq 0(%rsp), %rdi
  movq 8(%rsp), %rsi
  movq 16(%rsp), %rdx
  movq 24(%rsp), %rcx
  movq 32(%rsp), %r8
  movq 40(%rsp), %r9
  movq 48(%rsp), %rax
  movq 56(%rsp), %r11
  movaps 64(%rsp), %xmm0
  movaps 80(%rsp), %xmm1
  movaps 96(%rsp), %xmm2
  movaps 112(%rsp), %xmm3
  movaps 128(%rsp), %xmm4
  movaps 144(%rsp), %xmm5
  movaps 160(%rsp), %xmm6
  movaps 176(%rsp), %xmm7
  leaq strata_unknown_function_next(%rip), %r10
  movq (%r10,%r11,8), %r11
  leave
  jmp *%r11

  .section .note.GNU-stack, "", @progbits
