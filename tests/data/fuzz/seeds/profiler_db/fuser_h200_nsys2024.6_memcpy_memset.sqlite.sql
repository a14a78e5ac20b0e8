-- linkcast-fuzz-sql
CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    value                       TEXT      NOT NULL                     -- String value.
);
INSERT INTO "StringIds" VALUES(0,'GpuMetrics');
INSERT INTO "StringIds" VALUES(1,'SocMetrics');
INSERT INTO "StringIds" VALUES(2,'GenericCounters');
INSERT INTO "StringIds" VALUES(3,'mm_');
INSERT INTO "StringIds" VALUES(4,'task_submit');
INSERT INTO "StringIds" VALUES(5,'class_id');
INSERT INTO "StringIds" VALUES(6,'syncpt_id');
INSERT INTO "StringIds" VALUES(7,'syncpt_thresh');
INSERT INTO "StringIds" VALUES(8,'pid');
INSERT INTO "StringIds" VALUES(9,'tid');
INSERT INTO "StringIds" VALUES(10,'FTrace');
INSERT INTO "StringIds" VALUES(11,'ETW');
CREATE TABLE ANALYSIS_FILE (
    -- Analysis file content

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    filename                    TEXT,                                  -- File path
    contentId                   INTEGER,                               -- REFERENCES StringIds(id) -- File content
    globalPid                   INTEGER   NOT NULL                     -- Serialized GlobalId.
);
INSERT INTO "ANALYSIS_FILE" VALUES(0,'/tmp/nvidia/nsight_systems/quadd_session_1030559/streams/pid_30571_stdout.log',15,281987872980992);
INSERT INTO "ANALYSIS_FILE" VALUES(1,'/tmp/nvidia/nsight_systems/quadd_session_1030559/streams/pid_30571_stderr.log',13,281987872980992);
CREATE TABLE ProcessStreams (
    globalPid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    filenameId                  INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- File name
    contentId                   INTEGER   NOT NULL                     -- REFERENCES StringIds(id) -- Stream content
);
INSERT INTO "ProcessStreams" VALUES(281987872980992,14,15);
INSERT INTO "ProcessStreams" VALUES(281987872980992,12,13);
CREATE TABLE TARGET_INFO_SYSTEM_ENV (
    globalVid                   INTEGER,                               -- Serialized GlobalId.
    devStateName                TEXT      NOT NULL,                    -- Device state name.
    name                        TEXT      NOT NULL,                    -- Property name.
    nameEnum                    INTEGER   NOT NULL,                    -- Property enum value.
    value                       TEXT      NOT NULL                     -- Property value.
);
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuCores',1,'48');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuSpeedMhz',2,'3630.8099999999999');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuArchitecture',3,'x86_64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','SupportedABIs',5,'x86_64,');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','Supported64BitABIs',7,'x86_64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CNTFRQMHz',11,'0');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuDescription',13,'AMD EPYC 7413 24-Core Processor');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuInfo',14,'{"items":[{"cpuid":0,"socket":0,"maxfreqhz":3630810000},{"cpuid":1,"socket":0,"maxfreqhz":3630810000},{"cpuid":2,"socket":0,"maxfreqhz":3630810000},{"cpuid":3,"socket":0,"maxfreqhz":3630810000},{"cpuid":4,"socket":0,"maxfreqhz":3630810000},{"cpuid":5,"socket":0,"maxfreqhz":3630810000},{"cpuid":6,"socket":0,"maxfreqhz":3630810000},{"cpuid":7,"socket":0,"maxfreqhz":3630810000},{"cpuid":8,"socket":0,"maxfreqhz":3630810000},{"cpuid":9,"socket":0,"maxfreqhz":3630810000},{"cpuid":10,"socket":0,"maxfreqhz":3630810000},{"cpuid":11,"socket":0,"maxfreqhz":3630810000},{"cpuid":12,"socket":0,"maxfreqhz":3630810000},{"cpuid":13,"socket":0,"maxfreqhz":3630810000},{"cpuid":14,"socket":0,"maxfreqhz":3630810000},{"cpuid":15,"socket":0,"maxfreqhz":3630810000},{"cpuid":16,"socket":0,"maxfreqhz":3630810000},{"cpuid":17,"socket":0,"maxfreqhz":3630810000},{"cpuid":18,"socket":0,"maxfreqhz":3630810000},{"cpuid":19,"socket":0,"maxfreqhz":3630810000},{"cpuid":20,"socket":0,"maxfreqhz":3630810000},{"cpuid":21,"socket":0,"maxfreqhz":3630810000},{"cpuid":22,"socket":0,"maxfreqhz":3630810000},{"cpuid":23,"socket":0,"maxfreqhz":3630810000},{"cpuid":24,"socket":0,"maxfreqhz":3630810000},{"cpuid":25,"socket":0,"maxfreqhz":3630810000},{"cpuid":26,"socket":0,"maxfreqhz":3630810000},{"cpuid":27,"socket":0,"maxfreqhz":3630810000},{"cpuid":28,"socket":0,"maxfreqhz":3630810000},{"cpuid":29,"socket":0,"maxfreqhz":3630810000},{"cpuid":30,"socket":0,"maxfreqhz":3630810000},{"cpuid":31,"socket":0,"maxfreqhz":3630810000},{"cpuid":32,"socket":0,"maxfreqhz":3630810000},{"cpuid":33,"socket":0,"maxfreqhz":3630810000},{"cpuid":34,"socket":0,"maxfreqhz":3630810000},{"cpuid":35,"socket":0,"maxfreqhz":3630810000},{"cpuid":36,"socket":0,"maxfreqhz":3630810000},{"cpuid":37,"socket":0,"maxfreqhz":3630810000},{"cpuid":38,"socket":0,"maxfreqhz":3630810000},{"cpuid":39,"socket":0,"maxfreqhz":3630810000},{"cpuid":40,"socket":0,"maxfreqhz":3630810000},{"cpuid":41,"socket":0,"maxfreqhz":3630810000},{"cpuid":42,"socket":0,"maxfreqhz":3630810000},{"cpuid":43,"socket":0,"maxfreqhz":3630810000},{"cpuid":44,"socket":0,"maxfreqhz":3630810000},{"cpuid":45,"socket":0,"maxfreqhz":3630810000},{"cpuid":46,"socket":0,"maxfreqhz":3630810000},{"cpuid":47,"socket":0,"maxfreqhz":3630810000}]}');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuEmcSpeedMhz',101,'1600');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','SupportsXmcClients',153,'0');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','TargetInstallDir',170,'/usr/local/cuda-12.8/NsightSystems-cli-2024.6.2/target-linux-x64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','InjectionFilesStoragePath',173,'/tmp/nvidia/nsight_systems/injection_files');
CREATE TABLE TARGET_INFO_NIC_INFO (
    GUID                        INTEGER   NOT NULL,                    -- Network interface GUID
    stateName                   TEXT      NOT NULL,                    -- Device state name
    nicId                       INTEGER   NOT NULL,                    -- Network interface Id
    name                        TEXT      NOT NULL,                    -- Network interface name
    deviceId                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_NET_DEVICE_ID(id)
    vendorId                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_NET_VENDOR_ID(id)
    linkLayer                   INTEGER   NOT NULL                     -- REFERENCES ENUM_NET_LINK_TYPE(id)
);
INSERT INTO "TARGET_INFO_NIC_INFO" VALUES(630762345962706618,'Local (CLI)',0,'mlx5_0',4117,5555,1);
INSERT INTO "TARGET_INFO_NIC_INFO" VALUES(630762345962706619,'Local (CLI)',1,'mlx5_1',4117,5555,1);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT                                   -- Start of the capture in local time of target.
);
INSERT INTO "TARGET_INFO_SESSION_START_TIME" VALUES(1733878431540588992,'2024-12-11T00:53:51','2024-12-10T16:53:51');
CREATE TABLE ANALYSIS_DETAILS (
    -- Details about the analysis session.

    globalVid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    duration                    INTEGER   NOT NULL,                    -- The total time span of the entire trace (ns).
    startTime                   INTEGER   NOT NULL,                    -- Trace start timestamp in nanoseconds.
    stopTime                    INTEGER   NOT NULL                     -- Trace stop timestamp in nanoseconds.
);
INSERT INTO "ANALYSIS_DETAILS" VALUES(281474976710656,1549116279,789681571,2338797850);
CREATE TABLE DIAGNOSTIC_EVENT (
    timestamp                   INTEGER   NOT NULL,                    -- Event timestamp (ns).
    timestampType               INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE(id)
    source                      INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_SOURCE_TYPE(id)
    severity                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_SEVERITY_LEVEL(id)
    text                        TEXT      NOT NULL,                    -- Diagnostic message text
    globalPid                   INTEGER                                -- Serialized GlobalId.
);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(-861335,1,2,3,'Unable to configure the collection of CPU IP/backtrace samples, context switch data, or event sampling data. Try the ''nsys status --environment'' command to learn more.',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(0,1,3,1,'Profiling has started.',-144115188075855872);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(3690101,1,2,1,'Process was launched by the profiler, see /tmp/nvidia/nsight_systems/quadd_session_1030559/streams/pid_30571_stdout.log and stderr.log for program output',281987872980992);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(5819070,2,3,1,'Number of NVTX events collected: 	652.',281987872980992);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(5824670,2,3,1,'Number of CUDA events collected: 	989.',281987872980992);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(371748787,1,1,1,'Common injection library initialized successfully.',281987872980992);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(446364429,1,1,1,'Buffers holding CUDA trace data will be flushed on CudaProfilerStop() call. See --flush-on-cudaprofilerstop to control this behavior.',281987872980992);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(455865220,1,1,1,'Loaded CUPTI library: /usr/local/cuda-12.8/NsightSystems-cli-2024.6.2/target-linux-x64/libcupti.so.12.8',281987872980992);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(597645064,1,1,1,'CUDA injection initialized successfully.',281987872980992);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(646536380,1,1,1,'NVTX injection initialized successfully.',281987872980992);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(1364676482,1,1,1,'Number of CUPTI events produced: 	1048, CUPTI buffers: 50.',281987872980992);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(1549116279,1,3,1,'Profiling has stopped.',-144115188075855872);
CREATE TABLE PROFILER_OVERHEAD (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    returnValue                 INTEGER   NOT NULL                     -- Return value of the function call.
);
INSERT INTO "PROFILER_OVERHEAD" VALUES(357521181,371750397,281987873011563,19,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(371592497,371734027,281987873011563,17,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(371592668,371722757,281987873011563,16,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(371779667,372233464,281987873011575,17,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(371787507,372536813,281987873011576,17,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(446156901,597650754,281987873011563,23,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(637408458,637411278,281987873011563,25,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(639567466,641030369,281987873011563,26,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(639657586,640009764,281987873011579,17,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(641622666,641625756,281987873011563,25,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(646510030,646539660,281987873011563,28,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(771868490,771903850,281987873011563,30,0);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventClass                  INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_CLASS(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    correlationId               INTEGER,                               -- ID used to identify events that this function call has triggered.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    returnValue                 INTEGER   NOT NULL,                    -- Return value of the function call.
    callchainId                 INTEGER                                -- REFERENCES CUDA_CALLCHAINS(id)
);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(641620746,641622296,1,281987873011563,1,27,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(644049963,646190502,0,281987873011563,121,29,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(783043212,783051101,0,281987873011563,139,56,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(783059472,783171291,0,281987873011563,140,57,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(783330500,783331810,0,281987873011563,152,56,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(783333070,783333400,0,281987873011563,156,56,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(783345050,784435764,0,281987873011563,158,62,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(784462154,784463174,0,281987873011563,167,56,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(784463434,784543934,0,281987873011563,168,57,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(784558754,784559684,0,281987873011563,180,56,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(784560614,784560864,0,281987873011563,184,56,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(784562184,784573094,0,281987873011563,186,62,0,NULL);
CREATE TABLE NVTX_EVENTS (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    eventType                   INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_TYPE(id)
    rangeId                     INTEGER,                               -- Correlation ID returned from a nvtxRangeStart call.
    category                    INTEGER,                               -- User-controlled ID that can be used to group events.
    color                       INTEGER,                               -- Encoded ARGB color value.
    text                        TEXT,                                  -- Explicit name/text (non-registered string)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    endGlobalTid                INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER,                               -- REFERENCES StringIds(id) -- Registered NVTX domain/string
    domainId                    INTEGER,                               -- User-controlled ID that can be used to group events.
    uint64Value                 INTEGER,                               -- One of possible payload value union members.
    int64Value                  INTEGER,                               -- One of possible payload value union members.
    doubleValue                 REAL,                                  -- One of possible payload value union members.
    uint32Value                 INTEGER,                               -- One of possible payload value union members.
    int32Value                  INTEGER,                               -- One of possible payload value union members.
    floatValue                  REAL,                                  -- One of possible payload value union members.
    jsonTextId                  INTEGER,                               -- One of possible payload value union members.
    jsonText                    TEXT,                                  -- One of possible payload value union members.
    binaryData                  TEXT                                   -- Binary payload. See docs for format.
);
INSERT INTO "NVTX_EVENTS" VALUES(646543200,646547830,59,NULL,NULL,NULL,'Fusion::resetTvUses',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646544410,646545020,59,NULL,NULL,NULL,'getTerminatingOutputs',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646586850,646599770,59,NULL,NULL,NULL,'getTerminatingOutputs',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646587410,646599540,59,NULL,NULL,NULL,'Fusion::resetTvUses',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646587670,646588390,59,NULL,NULL,NULL,'getTerminatingOutputs',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646630360,646668789,59,NULL,NULL,NULL,'TransformReplay::replayCasP',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646669360,646674480,59,NULL,NULL,NULL,'Fusion::resetTvUses',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646669729,646669960,59,NULL,NULL,NULL,'getTerminatingOutputs',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646682189,646695640,59,NULL,NULL,NULL,'TransformReplay::replayCasP',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646707319,646718529,59,NULL,NULL,NULL,'TransformReplay::replayCasP',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646724249,646733389,59,NULL,NULL,NULL,'TransformReplay::replayCasP',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "NVTX_EVENTS" VALUES(646769539,646779519,59,NULL,NULL,NULL,'Fusion::resetTvUses',281987873011563,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    demangledName               INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Kernel function name w/ templates
    shortName                   INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Base kernel function name
    mangledName                 INTEGER,                               -- REFERENCES StringIds(id) -- Raw C++ mangled kernel function name
    launchType                  INTEGER,                               -- REFERENCES ENUM_CUDA_KERNEL_LAUNCH_TYPE(id)
    cacheConfig                 INTEGER,                               -- REFERENCES ENUM_CUDA_FUNC_CACHE_CONFIG(id)
    registersPerThread          INTEGER   NOT NULL,                    -- Number of registers required for each thread executing the kernel.
    gridX                       INTEGER   NOT NULL,                    -- X-dimension grid size.
    gridY                       INTEGER   NOT NULL,                    -- Y-dimension grid size.
    gridZ                       INTEGER   NOT NULL,                    -- Z-dimension grid size.
    blockX                      INTEGER   NOT NULL,                    -- X-dimension block size.
    blockY                      INTEGER   NOT NULL,                    -- Y-dimension block size.
    blockZ                      INTEGER   NOT NULL,                    -- Z-dimension block size.
    staticSharedMemory          INTEGER   NOT NULL,                    -- Static shared memory allocated for the kernel (B).
    dynamicSharedMemory         INTEGER   NOT NULL,                    -- Dynamic shared memory reserved for the kernel (B).
    localMemoryPerThread        INTEGER   NOT NULL,                    -- Amount of local memory reserved for each thread (B).
    localMemoryTotal            INTEGER   NOT NULL,                    -- Total amount of local memory reserved for the kernel (B).
    gridId                      INTEGER   NOT NULL,                    -- Unique grid ID of the kernel assigned at runtime.
    sharedMemoryExecuted        INTEGER,                               -- Shared memory size set by the driver.
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    sharedMemoryLimitConfig     INTEGER                                -- REFERENCES ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG(id)
);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(784431748,784472196,0,1,0,7,158,281987872980992,60,61,53,1,1,40,1056,1,1,256,1,1,0,0,0,155713536,1,32768,NULL,0);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(784573059,784613378,0,1,0,7,186,281987872980992,60,61,53,1,1,40,1056,1,1,256,1,1,0,0,0,155713536,2,32768,NULL,0);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1175037814,1175041942,0,1,0,7,240,281987872980992,64,65,54,1,1,16,4096,1,1,128,1,1,0,0,0,250871808,3,32768,NULL,0);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1175153012,1175285523,0,1,0,7,247,281987872980992,67,68,55,1,4,161,8,16,1,128,3,1,0,114816,0,250871808,4,135168,NULL,1);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1241321115,1241408698,0,1,0,7,1510,281987872980992,73,73,73,1,2,168,2,64,1,384,1,1,0,213180,0,250871808,5,233472,NULL,1);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1250729103,1250735855,0,1,0,7,1519,281987872980992,94,65,74,1,1,25,8192,1,1,128,1,1,0,0,0,250871808,6,32768,NULL,0);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1255732693,1255739189,0,1,0,7,1533,281987872980992,95,65,75,1,1,22,8192,1,1,128,1,1,0,0,0,250871808,7,32768,NULL,0);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1257680095,1257686591,0,1,0,7,1550,281987872980992,96,65,76,1,1,22,8192,1,1,128,1,1,0,0,0,250871808,8,32768,NULL,0);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1264975115,1264981867,0,1,0,7,1564,281987872980992,97,65,77,1,1,20,8192,1,1,128,1,1,0,0,0,250871808,9,32768,NULL,0);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1265054762,1265062570,0,1,0,7,1574,281987872980992,98,65,78,1,1,24,8192,1,1,128,1,1,0,0,0,250871808,10,32768,NULL,0);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1265083914,1265090345,0,1,0,7,1591,281987872980992,96,65,76,1,1,22,8192,1,1,128,1,1,0,0,0,250871808,11,32768,NULL,0);
INSERT INTO "CUPTI_ACTIVITY_KIND_KERNEL" VALUES(1265106569,1265112969,0,1,0,7,1608,281987872980992,96,65,76,1,1,22,8192,1,1,128,1,1,0,0,0,250871808,12,32768,NULL,0);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    value                       INTEGER   NOT NULL,                    -- Value assigned to memory.
    bytes                       INTEGER   NOT NULL,                    -- Number of bytes set (B).
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    memKind                     INTEGER                                -- REFERENCES ENUM_CUDA_MEM_KIND(id)
);
INSERT INTO "CUPTI_ACTIVITY_KIND_MEMSET" VALUES(1276816675,1276817763,0,1,0,7,1679,281987872980992,0,4,NULL,2);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    bytes                       INTEGER   NOT NULL,                    -- Number of bytes transferred (B).
    copyKind                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUDA_MEMCPY_OPER(id)
    deprecatedSrcId             INTEGER,                               -- Deprecated, use srcDeviceId instead.
    srcKind                     INTEGER,                               -- REFERENCES ENUM_CUDA_MEM_KIND(id)
    dstKind                     INTEGER,                               -- REFERENCES ENUM_CUDA_MEM_KIND(id)
    srcDeviceId                 INTEGER,                               -- Source device ID.
    srcContextId                INTEGER,                               -- Source context ID.
    dstDeviceId                 INTEGER,                               -- Destination device ID.
    dstContextId                INTEGER,                               -- Destination context ID.
    migrationCause              INTEGER,                               -- REFERENCES ENUM_CUDA_UNIF_MEM_MIGRATION(id)
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    virtualAddress              INTEGER                                -- Virtual base address of the page/s being transferred.
);
INSERT INTO "CUPTI_ACTIVITY_KIND_MEMCPY" VALUES(1288061345,1288062945,0,1,0,7,1693,281987872980992,1,2,NULL,2,1,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- Correlation ID of the synchronization API to which this result is associated.
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    syncType                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUPTI_SYNC_TYPE(id)
    eventId                     INTEGER   NOT NULL                     -- Event ID for which the synchronization API is called.
);
INSERT INTO "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" VALUES(1288062240,1288067780,0,1,NULL,7,1694,281987872980992,2,4294967295);
CREATE TABLE PROCESSES (
    -- Names and identifiers of processes captured in the report.

    globalPid                   INTEGER,                               -- Serialized GlobalId.
    pid                         INTEGER,                               -- The process ID.
    name                        TEXT                                   -- The process name.
);
INSERT INTO "PROCESSES" VALUES(281987872980992,30571,'./bin/test_matmul');
INSERT INTO "PROCESSES" VALUES(281987889758208,30572,'nsys-tee');
INSERT INTO "PROCESSES" VALUES(281474993487872,1,'dash');
INSERT INTO "PROCESSES" VALUES(281478734807040,224,'xonsh');
INSERT INTO "PROCESSES" VALUES(281987503882240,30549,'nsys');
INSERT INTO "PROCESSES" VALUES(281987671654400,30559,'nsys');
INSERT INTO "PROCESSES" VALUES(281987856203776,30570,'nsys-launcher');
CREATE TABLE ThreadNames (
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Thread name
    priority                    INTEGER,                               -- Priority of the thread.
    globalTid                   INTEGER                                -- Serialized GlobalId.
);
INSERT INTO "ThreadNames" VALUES(36,20,281474993487873);
INSERT INTO "ThreadNames" VALUES(37,20,281478734807264);
INSERT INTO "ThreadNames" VALUES(38,20,281987503912789);
INSERT INTO "ThreadNames" VALUES(39,20,281987503912793);
INSERT INTO "ThreadNames" VALUES(39,20,281987503912794);
INSERT INTO "ThreadNames" VALUES(40,20,281987503912795);
INSERT INTO "ThreadNames" VALUES(40,20,281987503912796);
INSERT INTO "ThreadNames" VALUES(39,20,281987503912806);
INSERT INTO "ThreadNames" VALUES(41,20,281987503912807);
INSERT INTO "ThreadNames" VALUES(38,20,281987671684959);
INSERT INTO "ThreadNames" VALUES(42,20,281987671684960);
INSERT INTO "ThreadNames" VALUES(42,20,281987671684961);
CREATE TABLE TARGET_INFO_GPU (
    vmId                        INTEGER   NOT NULL,                    -- Serialized GlobalId.
    id                          INTEGER   NOT NULL,                    -- Device ID.
    name                        TEXT,                                  -- Device name.
    busLocation                 TEXT,                                  -- PCI bus location.
    isDiscrete                  INTEGER,                               -- True if discrete, false if integrated.
    l2CacheSize                 INTEGER,                               -- Size of L2 cache (B).
    totalMemory                 INTEGER,                               -- Total amount of memory on the device (B).
    memoryBandwidth             INTEGER,                               -- Amount of memory transferred (B).
    clockRate                   INTEGER,                               -- Clock frequency (Hz).
    smCount                     INTEGER,                               -- Number of multiprocessors on the device.
    pwGpuId                     INTEGER,                               -- PerfWorks GPU ID.
    uuid                        TEXT,                                  -- Device UUID.
    luid                        INTEGER,                               -- Device LUID.
    chipName                    TEXT,                                  -- Chip name.
    cuDevice                    INTEGER,                               -- CUDA device ID.
    ctxswDevPath                TEXT,                                  -- GPU context switch device node path.
    ctrlDevPath                 TEXT,                                  -- GPU control device node path.
    revision                    INTEGER,                               -- Revision number.
    nodeMask                    INTEGER,                               -- Device node mask.
    constantMemory              INTEGER,                               -- Memory available on device for __constant__ variables (B).
    maxIPC                      INTEGER,                               -- Maximum instructions per count.
    maxRegistersPerBlock        INTEGER,                               -- Maximum number of 32-bit registers available per block.
    maxShmemPerBlock            INTEGER,                               -- Maximum optin shared memory per block.
    maxShmemPerBlockOptin       INTEGER,                               -- Maximum optin shared memory per block.
    maxShmemPerSm               INTEGER,                               -- Maximum shared memory available per multiprocessor (B).
    maxRegistersPerSm           INTEGER,                               -- Maximum number of 32-bit registers available per multiprocessor.
    threadsPerWarp              INTEGER,                               -- Warp size in threads.
    asyncEngines                INTEGER,                               -- Number of asynchronous engines.
    maxWarpsPerSm               INTEGER,                               -- Maximum number of warps per multiprocessor.
    maxBlocksPerSm              INTEGER,                               -- Maximum number of blocks per multiprocessor.
    maxThreadsPerBlock          INTEGER,                               -- Maximum number of threads per block.
    maxBlockDimX                INTEGER,                               -- Maximum X-dimension of a block.
    maxBlockDimY                INTEGER,                               -- Maximum Y-dimension of a block.
    maxBlockDimZ                INTEGER,                               -- Maximum Z-dimension of a block.
    maxGridDimX                 INTEGER,                               -- Maximum X-dimension of a grid.
    maxGridDimY                 INTEGER,                               -- Maximum Y-dimension of a grid.
    maxGridDimZ                 INTEGER,                               -- Maximum Z-dimension of a grid.
    computeMajor                INTEGER,                               -- Major compute capability version number.
    computeMinor                INTEGER,                               -- Minor compute capability version number.
    smMajor                     INTEGER,                               -- Major multiprocessor version number.
    smMinor                     INTEGER                                -- Minor multiprocessor version number.
);
INSERT INTO "TARGET_INFO_GPU" VALUES(281474976710656,0,'NVIDIA H200','0000:45:00.0',1,62914560,150137864192,4916736000000,1980000000,132,0,'9f8075aa-e02a-0953-1955-32f638fb2993',0,'GH100',0,'','',161,0,65536,0,65536,49152,232448,233472,65536,32,3,64,32,1024,1024,1024,64,2147483647,65535,65535,9,0,9,0);
CREATE TABLE TARGET_INFO_CUDA_CONTEXT_INFO (
    nullStreamId                INTEGER   NOT NULL,                    -- Stream ID.
    hwId                        INTEGER   NOT NULL,                    -- Hardware ID.
    vmId                        INTEGER   NOT NULL,                    -- VM ID.
    processId                   INTEGER   NOT NULL,                    -- Process ID.
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    parentContextId             INTEGER,                               -- For green context, this is the parent context id.
    isGreenContext              INTEGER                                -- Is this a Green Context?
);
INSERT INTO "TARGET_INFO_CUDA_CONTEXT_INFO" VALUES(7,0,1,30571,0,1,0,0);
CREATE TABLE TARGET_INFO_CUDA_STREAM (
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    hwId                        INTEGER   NOT NULL,                    -- Hardware ID.
    vmId                        INTEGER   NOT NULL,                    -- VM ID.
    processId                   INTEGER   NOT NULL,                    -- Process ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    priority                    INTEGER   NOT NULL,                    -- Priority of the stream.
    flag                        INTEGER   NOT NULL                     -- REFERENCES ENUM_CUPTI_STREAM_TYPE(id)
);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(12,0,1,30571,1,4294967291,1);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(11,0,1,30571,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(10,0,1,30571,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(9,0,1,30571,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(8,0,1,30571,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(7,0,1,30571,1,0,3);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(6,0,1,30571,1,0,1);
CREATE TABLE ENUM_NSYS_EVENT_TYPE (
    -- Nsys event type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(0,'Unknown','Unknown');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(1,'CpuCycles','CpuCycles');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(2,'Instructions','Instructions');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(3,'CacheReferences','CacheReferences');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(4,'L1CacheDataWriteMisses','L1CacheDataWriteMisses');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(5,'L1CacheDataReadMisses','L1CacheDataReadMisses');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(6,'L1CacheInstructionMisses','L1CacheInstructionMisses');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(7,'L2CacheDataWriteMisses','L2CacheDataWriteMisses');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(8,'L2CacheDataReadMisses','L2CacheDataReadMisses');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(9,'L2CacheInstructionMisses','L2CacheInstructionMisses');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(10,'BranchInstructions','BranchInstructions');
INSERT INTO "ENUM_NSYS_EVENT_TYPE" VALUES(11,'BranchMisses','BranchMisses');
CREATE TABLE ENUM_NSYS_EVENT_CLASS (
    -- Nsys event class labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(0,'TRACE_PROCESS_EVENT_CUDA_RUNTIME','CUDA runtime');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(1,'TRACE_PROCESS_EVENT_CUDA_DRIVER','CUDA driver');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(2,'TRACE_PROCESS_EVENT_GL','GL');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(3,'TRACE_PROCESS_EVENT_TSP_OVERHEAD','TSP overhead');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(4,'TRACE_PROCESS_EVENT_GL_DEBUG','GL debug');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(5,'TRACE_PROCESS_EVENT_GL_WORKLOAD','GL workload');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(6,'TRACE_PROCESS_EVENT_NVTX_START','NVTX start');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(7,'TRACE_PROCESS_EVENT_NVTX_FINISH','NVTX finish');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(8,'TRACE_PROCESS_EVENT_GL_START','GL start');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(9,'TRACE_PROCESS_EVENT_GL_FINISH','GL finish');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(10,'TRACE_PROCESS_EVENT_CUDA_START','CUDA start');
INSERT INTO "ENUM_NSYS_EVENT_CLASS" VALUES(11,'TRACE_PROCESS_EVENT_CUDA_FINISH','CUDA finish');
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_SOURCE (
    -- Nsys generic event source labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_SOURCE" VALUES(0,'NotSpecified','Not Specified');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_SOURCE" VALUES(1,'ClockMonotonicRaw','Clock Monotoic Raw');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_SOURCE" VALUES(2,'CntVct','Counter-Timer Virtual Count Register');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_SOURCE" VALUES(3,'SessionNs','Session Nanoseconds');
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_GROUP (
    -- Nsys generic event group labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_GROUP" VALUES(0,'Unknown','Unknown');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_GROUP" VALUES(1,'FTrace','FTrace');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_GROUP" VALUES(2,'NvMedia','NV Media');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_GROUP" VALUES(3,'Hypervisor','Hypervisor');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_GROUP" VALUES(4,'ETW','ETW');
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_FIELD_TYPE (
    -- Nsys generic event field type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_TYPE" VALUES(0,'Signed','Signed Integer');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_TYPE" VALUES(1,'Unsigned','Unsigned Integer');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_TYPE" VALUES(2,'Float','Float');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_TYPE" VALUES(3,'Double','Double');
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY (
    -- Nsys generic event field ETW property flag labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY" VALUES(1,'PropertyStruct','Struct');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY" VALUES(2,'PropertyParamLength','Param Length');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY" VALUES(4,'PropertyParamCount','Param Count');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY" VALUES(8,'PropertyWBEMXmlFragment','WBEM XML Fragment');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY" VALUES(16,'PropertyParamFixedLength','Param Fixed Length');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY" VALUES(32,'PropertyParamFixedCount','Param Fixed Count');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY" VALUES(64,'PropertyHasTags','Has tags');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_PROPERTY" VALUES(128,'PropertyHasCustomSchema','Has Custom Schema');
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE (
    -- Nsys generic event field ETW type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(0,'TDH_INTYPE_NULL','NULL');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(1,'TDH_INTYPE_UNICODESTRING','Unicode String');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(2,'TDH_INTYPE_ANSISTRING','ANSI String');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(3,'TDH_INTYPE_INT8','int8');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(4,'TDH_INTYPE_UINT8','uint8');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(5,'TDH_INTYPE_INT16','int16');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(6,'TDH_INTYPE_UINT16','uint16');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(7,'TDH_INTYPE_INT32','int32');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(8,'TDH_INTYPE_UINT32','uint32');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(9,'TDH_INTYPE_INT64','int64');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(10,'TDH_INTYPE_UINT64','uint64');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_TYPE" VALUES(11,'TDH_INTYPE_FLOAT','float');
CREATE TABLE ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS (
    -- Nsys generic event field ETW map info flag labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS" VALUES(1,'EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP','Manifest Value Map');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS" VALUES(2,'EVENTMAP_INFO_FLAG_MANIFEST_BITMAP','Manifest Bitmap');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS" VALUES(4,'EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP','Manifest Pattern Map');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS" VALUES(8,'EVENTMAP_INFO_FLAG_WBEM_VALUEMAP','WBEM Value Map');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS" VALUES(16,'EVENTMAP_INFO_FLAG_WBEM_BITMAP','WBEM Bitmap');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS" VALUES(32,'EVENTMAP_INFO_FLAG_WBEM_FLAG','WBEM Flag');
INSERT INTO "ENUM_NSYS_GENERIC_EVENT_FIELD_ETW_FLAGS" VALUES(64,'EVENTMAP_INFO_FLAG_WBEM_NO_MAP','WBEM No Map');
CREATE TABLE ENUM_GPU_CTX_SWITCH (
    -- GPU context switch labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(-1,'UnknownGpuCtxswTag','Unknown');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(0,'SOF','SO');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(1,'REQ_BY_HOST','Request by host');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(2,'FE_ACK','Front-end ACK');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(3,'FE_ACK_WFI','Front-end ACK WFI');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(4,'FE_ACK_GFXP','Front-end ACK GFXP');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(5,'FE_ACK_CTAP','Front-end ACK CTAP');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(6,'FE_ACK_CILP','Front-end ACK CILP');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(7,'SAVE_END','Save end');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(8,'RESTORE_START','Restore start');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(9,'CONTEXT_START','Context start');
INSERT INTO "ENUM_GPU_CTX_SWITCH" VALUES(10,'INVALID_TIMESTAMP','Invalid timestamp');
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (
    -- CUDA memcpy operation labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(0,'CUDA_MEMCPY_KIND_UNKNOWN','Unknown');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(1,'CUDA_MEMCPY_KIND_HTOD','Host-to-Device');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(2,'CUDA_MEMCPY_KIND_DTOH','Device-to-Host');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(3,'CUDA_MEMCPY_KIND_HTOA','Host-to-Array');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(4,'CUDA_MEMCPY_KIND_ATOH','Array-to-Host');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(5,'CUDA_MEMCPY_KIND_ATOA','Array-to-Array');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(6,'CUDA_MEMCPY_KIND_ATOD','Array-to-Device');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(7,'CUDA_MEMCPY_KIND_DTOA','Device-to-Array');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(8,'CUDA_MEMCPY_KIND_DTOD','Device-to-Device');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(9,'CUDA_MEMCPY_KIND_HTOH','Host-to-Host');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(10,'CUDA_MEMCPY_KIND_PTOP','Peer-to-Peer');
INSERT INTO "ENUM_CUDA_MEMCPY_OPER" VALUES(11,'CUDA_MEMCPY_KIND_UVM_HTOD','Unified Host-to-Device');
CREATE TABLE ENUM_CUDA_MEM_KIND (
    -- CUDA memory kind labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_MEM_KIND" VALUES(0,'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE','Pageable');
INSERT INTO "ENUM_CUDA_MEM_KIND" VALUES(1,'CUDA_MEMOPR_MEMORY_KIND_PINNED','Pinned');
INSERT INTO "ENUM_CUDA_MEM_KIND" VALUES(2,'CUDA_MEMOPR_MEMORY_KIND_DEVICE','Device');
INSERT INTO "ENUM_CUDA_MEM_KIND" VALUES(3,'CUDA_MEMOPR_MEMORY_KIND_ARRAY','Array');
INSERT INTO "ENUM_CUDA_MEM_KIND" VALUES(4,'CUDA_MEMOPR_MEMORY_KIND_MANAGED','Managed');
INSERT INTO "ENUM_CUDA_MEM_KIND" VALUES(5,'CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC','Device Static');
INSERT INTO "ENUM_CUDA_MEM_KIND" VALUES(6,'CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC','Managed Static');
INSERT INTO "ENUM_CUDA_MEM_KIND" VALUES(7,'CUDA_MEMOPR_MEMORY_KIND_UNKNOWN','Unknown');
CREATE TABLE ENUM_CUDA_MEMPOOL_TYPE (
    -- CUDA mempool type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_MEMPOOL_TYPE" VALUES(0,'CUDA_MEMPOOL_TYPE_INVALID','Invalid');
INSERT INTO "ENUM_CUDA_MEMPOOL_TYPE" VALUES(1,'CUDA_MEMPOOL_TYPE_LOCAL','Local');
INSERT INTO "ENUM_CUDA_MEMPOOL_TYPE" VALUES(2,'CUDA_MEMPOOL_TYPE_IMPORTED','Imported');
CREATE TABLE ENUM_CUDA_MEMPOOL_OPER (
    -- CUDA mempool operation labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_MEMPOOL_OPER" VALUES(0,'CUDA_MEMPOOL_OPERATION_TYPE_INVALID','Invalid');
INSERT INTO "ENUM_CUDA_MEMPOOL_OPER" VALUES(1,'CUDA_MEMPOOL_OPERATION_TYPE_CREATED','Created');
INSERT INTO "ENUM_CUDA_MEMPOOL_OPER" VALUES(2,'CUDA_MEMPOOL_OPERATION_TYPE_DESTROYED','Destroyed');
INSERT INTO "ENUM_CUDA_MEMPOOL_OPER" VALUES(3,'CUDA_MEMPOOL_OPERATION_TYPE_TRIMMED','Trimmed');
CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (
    -- CUDA device mem event operation labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_DEV_MEM_EVENT_OPER" VALUES(0,'CUDA_DEV_MEM_EVENT_OPR_ALLOCATION','Allocation');
INSERT INTO "ENUM_CUDA_DEV_MEM_EVENT_OPER" VALUES(1,'CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION','Deallocation');
CREATE TABLE ENUM_CUDA_KERNEL_LAUNCH_TYPE (
    -- CUDA kernel launch type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_KERNEL_LAUNCH_TYPE" VALUES(0,'CUDA_KERNEL_LAUNCH_TYPE_UNKNOWN','Unknown');
INSERT INTO "ENUM_CUDA_KERNEL_LAUNCH_TYPE" VALUES(1,'CUDA_KERNEL_LAUNCH_TYPE_REGULAR','Regular');
INSERT INTO "ENUM_CUDA_KERNEL_LAUNCH_TYPE" VALUES(2,'CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE','Coop Single Device');
INSERT INTO "ENUM_CUDA_KERNEL_LAUNCH_TYPE" VALUES(3,'CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE','Coop Multi Device');
CREATE TABLE ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG (
    -- CUDA shared memory limit config labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG" VALUES(0,'CUDA_SHARED_MEM_LIMIT_DEFAULT','Default');
INSERT INTO "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG" VALUES(1,'CUDA_SHARED_MEM_LIMIT_OPTIN','Opt in');
CREATE TABLE ENUM_CUDA_UNIF_MEM_MIGRATION (
    -- CUDA unified memory migration cause labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_UNIF_MEM_MIGRATION" VALUES(0,'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_UNKNOWN','Unknown');
INSERT INTO "ENUM_CUDA_UNIF_MEM_MIGRATION" VALUES(1,'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_USER','User prefetch');
INSERT INTO "ENUM_CUDA_UNIF_MEM_MIGRATION" VALUES(2,'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE','Page fault');
INSERT INTO "ENUM_CUDA_UNIF_MEM_MIGRATION" VALUES(3,'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH','Speculative prefecth');
INSERT INTO "ENUM_CUDA_UNIF_MEM_MIGRATION" VALUES(4,'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION','Eviction');
INSERT INTO "ENUM_CUDA_UNIF_MEM_MIGRATION" VALUES(5,'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS','Access counters');
CREATE TABLE ENUM_CUDA_UNIF_MEM_ACCESS_TYPE (
    -- CUDA unified memory access type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(0,'CUDA_UNIFIED_MEMORY_ACCESS_TYPE_UNKNOWN','Unknown');
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(1,'CUDA_UNIFIED_MEMORY_ACCESS_TYPE_READ','Read');
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(2,'CUDA_UNIFIED_MEMORY_ACCESS_TYPE_WRITE','Write');
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(3,'CUDA_UNIFIED_MEMORY_ACCESS_TYPE_ATOMIC','Atomic');
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(4,'CUDA_UNIFIED_MEMORY_ACCESS_TYPE_PREFETCH','Prefetch');
CREATE TABLE ENUM_CUDA_FUNC_CACHE_CONFIG (
    -- CUDA function cache config labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_FUNC_CACHE_CONFIG" VALUES(0,'CU_FUNC_CACHE_PREFER_NONE','None');
INSERT INTO "ENUM_CUDA_FUNC_CACHE_CONFIG" VALUES(1,'CU_FUNC_CACHE_PREFER_SHARED','Shared');
INSERT INTO "ENUM_CUDA_FUNC_CACHE_CONFIG" VALUES(2,'CU_FUNC_CACHE_PREFER_L1','L1');
INSERT INTO "ENUM_CUDA_FUNC_CACHE_CONFIG" VALUES(3,'CU_FUNC_CACHE_PREFER_EQUAL','Equal');
CREATE TABLE ENUM_CUPTI_STREAM_TYPE (
    -- CUPTI stream type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUPTI_STREAM_TYPE" VALUES(0,'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN','Unknown stream type');
INSERT INTO "ENUM_CUPTI_STREAM_TYPE" VALUES(1,'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT','Default stream');
INSERT INTO "ENUM_CUPTI_STREAM_TYPE" VALUES(2,'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING','Non-blocking stream');
INSERT INTO "ENUM_CUPTI_STREAM_TYPE" VALUES(3,'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL','Null stream');
CREATE TABLE ENUM_CUPTI_SYNC_TYPE (
    -- CUPTI synchronization type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUPTI_SYNC_TYPE" VALUES(0,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN','Unknown');
INSERT INTO "ENUM_CUPTI_SYNC_TYPE" VALUES(1,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE','Event sync');
INSERT INTO "ENUM_CUPTI_SYNC_TYPE" VALUES(2,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT','Stream wait sync');
INSERT INTO "ENUM_CUPTI_SYNC_TYPE" VALUES(3,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE','Stream sync');
INSERT INTO "ENUM_CUPTI_SYNC_TYPE" VALUES(4,'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE','Context sync');
CREATE TABLE ENUM_STACK_UNWIND_METHOD (
    -- Stack unwind method labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(0,'Unknown','Unknown');
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(1,'FramePointer','Frame pointer');
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(2,'UnwindTable','Unwind table');
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(3,'LR_FramePointer','LR frame pointer');
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(4,'LR_UnwindTable','LR unwind table');
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(5,'KernelContext','Kernel context');
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(6,'DWARF_EH','DWARF EH');
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(7,'DWARF_DF','DWARF DF');
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(8,'LBR','LBR');
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(1000,'Undefined','Undefined');
CREATE TABLE ENUM_SAMPLING_THREAD_STATE (
    -- Sampling thread state labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(0,'Unknown','Unknown');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(1,'Running','Running');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(2,'Interruptible','Interruptible');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(3,'Uninterruptible','Uninterruptible');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(4,'Stopped','Stopped');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(5,'Terminated','Terminated');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(6,'Unscheduled','Unscheduled');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(7,'Waiting','Waiting');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(8,'OSRuntime','OS runtime');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(9,'Initialized','Initialized');
INSERT INTO "ENUM_SAMPLING_THREAD_STATE" VALUES(10,'Transition','Transition');
CREATE TABLE ENUM_SCHEDULING_THREAD_BLOCK (
    -- Scheduling thread block labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(0,'NonBlocked','NonBlocked');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(1,'Unknown','Unknown');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(2,'SigSuspend','SigSuspend');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(3,'Stopped','Stopped');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(4,'Nanosleep','Nanosleep');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(5,'Intr','Intr');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(6,'Mutex','Mutex');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(7,'CondVar','CondVar');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(8,'Sem','Sem');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(9,'Join','Join');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(10,'SigWaitInfo','SigWaitInfo');
INSERT INTO "ENUM_SCHEDULING_THREAD_BLOCK" VALUES(11,'WaitCtx','WaitCtx');
CREATE TABLE ENUM_OPENGL_DEBUG_SOURCE (
    -- OpenGL debug source labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_OPENGL_DEBUG_SOURCE" VALUES(33350,'GL_DEBUG_SOURCE_API','API');
INSERT INTO "ENUM_OPENGL_DEBUG_SOURCE" VALUES(33351,'GL_DEBUG_SOURCE_WINDOW_SYSTEM','Window system');
INSERT INTO "ENUM_OPENGL_DEBUG_SOURCE" VALUES(33352,'GL_DEBUG_SOURCE_SHADER_COMPILER','Shader compiler');
INSERT INTO "ENUM_OPENGL_DEBUG_SOURCE" VALUES(33353,'GL_DEBUG_SOURCE_THIRD_PARTY','Third party');
INSERT INTO "ENUM_OPENGL_DEBUG_SOURCE" VALUES(33354,'GL_DEBUG_SOURCE_APPLICATION','Application');
INSERT INTO "ENUM_OPENGL_DEBUG_SOURCE" VALUES(33355,'GL_DEBUG_SOURCE_OTHER','Other');
CREATE TABLE ENUM_OPENGL_DEBUG_TYPE (
    -- OpenGL debug type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_OPENGL_DEBUG_TYPE" VALUES(33356,'GL_DEBUG_TYPE_ERROR','Error');
INSERT INTO "ENUM_OPENGL_DEBUG_TYPE" VALUES(33357,'GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR','Deprecated behavior');
INSERT INTO "ENUM_OPENGL_DEBUG_TYPE" VALUES(33358,'GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR','Undefined behavior');
INSERT INTO "ENUM_OPENGL_DEBUG_TYPE" VALUES(33359,'GL_DEBUG_TYPE_PORTABILITY','Portability');
INSERT INTO "ENUM_OPENGL_DEBUG_TYPE" VALUES(33360,'GL_DEBUG_TYPE_PERFORMANCE','Performance');
INSERT INTO "ENUM_OPENGL_DEBUG_TYPE" VALUES(33361,'GL_DEBUG_TYPE_OTHER','Other');
INSERT INTO "ENUM_OPENGL_DEBUG_TYPE" VALUES(33384,'GL_DEBUG_TYPE_MARKER','Marker');
INSERT INTO "ENUM_OPENGL_DEBUG_TYPE" VALUES(33385,'GL_DEBUG_TYPE_PUSH_GROUP','Push group');
INSERT INTO "ENUM_OPENGL_DEBUG_TYPE" VALUES(33386,'GL_DEBUG_TYPE_POP_GROUP','Pop group');
CREATE TABLE ENUM_OPENGL_DEBUG_SEVERITY (
    -- OpenGL debug severity labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_OPENGL_DEBUG_SEVERITY" VALUES(33387,'GL_DEBUG_SEVERITY_NOTIFICATION','Notification');
INSERT INTO "ENUM_OPENGL_DEBUG_SEVERITY" VALUES(37190,'GL_DEBUG_SEVERITY_HIGH','High');
INSERT INTO "ENUM_OPENGL_DEBUG_SEVERITY" VALUES(37191,'GL_DEBUG_SEVERITY_MEDIUM','Medium');
INSERT INTO "ENUM_OPENGL_DEBUG_SEVERITY" VALUES(37192,'GL_DEBUG_SEVERITY_LOW','Low');
CREATE TABLE ENUM_VULKAN_PIPELINE_CREATION_FLAGS (
    -- Vulkan pipeline creation feedback flag labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_VULKAN_PIPELINE_CREATION_FLAGS" VALUES(1,'VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT','Valid flag');
INSERT INTO "ENUM_VULKAN_PIPELINE_CREATION_FLAGS" VALUES(2,'VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT','Cache hit flag');
INSERT INTO "ENUM_VULKAN_PIPELINE_CREATION_FLAGS" VALUES(4,'VK_PIPELINE_CREATION_FEEDBACK_BASE_PIPELINE_ACCELERATION_BIT','Pipeline acceleration flag');
CREATE TABLE ENUM_D3D12_HEAP_TYPE (
    -- D3D12 heap type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_D3D12_HEAP_TYPE" VALUES(1,'D3D12_HEAP_TYPE_DEFAULT','Default');
INSERT INTO "ENUM_D3D12_HEAP_TYPE" VALUES(2,'D3D12_HE