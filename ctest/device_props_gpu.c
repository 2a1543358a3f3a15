/* ctest: gpu machine
 * The values of cudaDeviceProp that belong to this machine, not to the GPU model: name,
 * UUID, LUID, memory, PCI location, NUMA ids, for every device; the same under every
 * runtime of one machine (device_props.c checks them against the attributes). */
#include "ctest.h"

int main(void) {
    int n = 0;
    OK(SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&n)));
    for (int d = 0; d < n; d++) {
        struct cudaDeviceProp p;
        memset(&p, 0, sizeof p);
        printf("device %d\n", d);
        OK(SHOW("cudaGetDeviceProperties", cudaGetDeviceProperties(&p, d)));
        printf("name = %s\n", p.name);
        printf("uuid =");
        for (int i = 0; i < 16; i++) printf(" %02x", (unsigned char)p.uuid.bytes[i]);
        printf("\nluid =");
        for (int i = 0; i < 8; i++) printf(" %02x", (unsigned char)p.luid[i]);
        printf("\n");
        SHOWU("luidDeviceNodeMask", p.luidDeviceNodeMask);
        SHOWU("totalGlobalMem", p.totalGlobalMem);
        SHOWI("pciDomainID", p.pciDomainID);
        SHOWI("pciBusID", p.pciBusID);
        SHOWI("pciDeviceID", p.pciDeviceID);
        SHOWI("multiGpuBoardGroupID", p.multiGpuBoardGroupID);
#if CUDART_VERSION >= 13000
        SHOWI("deviceNumaId", p.deviceNumaId);
        SHOWI("hostNumaId", p.hostNumaId);
        printf("gpuPciDeviceID = 0x%08x\n", p.gpuPciDeviceID);
        printf("gpuPciSubsystemID = 0x%08x\n", p.gpuPciSubsystemID);
#endif
        char bus[64];
        memset(bus, 0, sizeof bus);
        OK(SHOW("cudaDeviceGetPCIBusId", cudaDeviceGetPCIBusId(bus, sizeof bus, d)));
        printf("PCI bus id = %s\n", bus);
    }
    DONE();
}
