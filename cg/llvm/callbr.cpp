// cg/llvm/callbr.cpp — the one piece of the LLVM lowering LLVM 16's C API
// lacks: building a callbr (asm goto). Called from lower_asm.c.
#include <llvm-c/Core.h>
#include <llvm/IR/IRBuilder.h>

#include <vector>

extern "C" LLVMValueRef kit_llvm__callbr(LLVMBuilderRef b, LLVMTypeRef fty, LLVMValueRef callee,
                                         LLVMBasicBlockRef dflt, LLVMBasicBlockRef *indirect, unsigned nindirect,
                                         LLVMValueRef *args, unsigned nargs) {
  std::vector<llvm::BasicBlock *> ind;
  for (unsigned i = 0; i < nindirect; i++) ind.push_back(llvm::unwrap(indirect[i]));
  std::vector<llvm::Value *> av;
  for (unsigned i = 0; i < nargs; i++) av.push_back(llvm::unwrap(args[i]));
  llvm::IRBuilder<> *B = llvm::unwrap(b);
  return llvm::wrap(B->CreateCallBr(llvm::unwrap<llvm::FunctionType>(fty), llvm::unwrap(callee),
                                    llvm::unwrap(dflt), ind, av));
}
