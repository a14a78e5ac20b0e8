-- linkcast-fuzz-sql
CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    value                       TEXT      NOT NULL                     -- String value.
);
INSERT INTO "StringIds" VALUES(0,'[Unknown]');
INSERT INTO "StringIds" VALUES(1,'[kernel.kallsyms]');
INSERT INTO "StringIds" VALUES(2,'[Max depth]');
INSERT INTO "StringIds" VALUES(3,'[Broken backtraces]');
INSERT INTO "StringIds" VALUES(4,'[Called from Java]');
INSERT INTO "StringIds" VALUES(5,'GpuMetrics');
INSERT INTO "StringIds" VALUES(6,'SocMetrics');
INSERT INTO "StringIds" VALUES(7,'mm_');
INSERT INTO "StringIds" VALUES(8,'task_submit');
INSERT INTO "StringIds" VALUES(9,'class_id');
INSERT INTO "StringIds" VALUES(10,'syncpt_id');
INSERT INTO "StringIds" VALUES(11,'syncpt_thresh');
CREATE TABLE ANALYSIS_FILE (
    -- Analysis file content

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    filename                    TEXT,                                  -- File path
    contentId                   INTEGER,                               -- REFERENCES StringIds(id) -- File content
    globalPid                   INTEGER   NOT NULL                     -- Serialized GlobalId.
);
INSERT INTO "ANALYSIS_FILE" VALUES(0,'/tmp/nvidia/nsight_systems/quadd_session_104005778/streams/pid_4005795_stdout.log',36,348681064677376);
INSERT INTO "ANALYSIS_FILE" VALUES(1,'/tmp/nvidia/nsight_systems/quadd_session_104005778/streams/pid_4005795_stderr.log',27,348681064677376);
CREATE TABLE ProcessStreams (
    globalPid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    filenameId                  INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- File name
    contentId                   INTEGER   NOT NULL                     -- REFERENCES StringIds(id) -- Stream content
);
INSERT INTO "ProcessStreams" VALUES(348681064677376,35,36);
INSERT INTO "ProcessStreams" VALUES(348681064677376,26,27);
CREATE TABLE TARGET_INFO_SYSTEM_ENV (
    globalVid                   INTEGER,                               -- Serialized GlobalId.
    devStateName                TEXT      NOT NULL,                    -- Device state name.
    name                        TEXT      NOT NULL,                    -- Property name.
    nameEnum                    INTEGER   NOT NULL,                    -- Property enum value.
    value                       TEXT      NOT NULL                     -- Property value.
);
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuCores',1,'128');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuSpeedMhz',2,'3681.6399999999999');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuArchitecture',3,'x86_64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','SupportedABIs',5,'x86_64,');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','Supported64BitABIs',7,'x86_64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuDescription',13,'AMD EPYC 7513 32-Core Processor');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuInfo',14,'{"items":[{"cpuid":0,"socket":0,"maxfreqhz":3681640000},{"cpuid":1,"socket":0,"maxfreqhz":3681640000},{"cpuid":2,"socket":0,"maxfreqhz":3681640000},{"cpuid":3,"socket":0,"maxfreqhz":3681640000},{"cpuid":4,"socket":0,"maxfreqhz":3681640000},{"cpuid":5,"socket":0,"maxfreqhz":3681640000},{"cpuid":6,"socket":0,"maxfreqhz":3681640000},{"cpuid":7,"socket":0,"maxfreqhz":3681640000},{"cpuid":8,"socket":0,"maxfreqhz":3681640000},{"cpuid":9,"socket":0,"maxfreqhz":3681640000},{"cpuid":10,"socket":0,"maxfreqhz":3681640000},{"cpuid":11,"socket":0,"maxfreqhz":3681640000},{"cpuid":12,"socket":0,"maxfreqhz":3681640000},{"cpuid":13,"socket":0,"maxfreqhz":3681640000},{"cpuid":14,"socket":0,"maxfreqhz":3681640000},{"cpuid":15,"socket":0,"maxfreqhz":3681640000},{"cpuid":16,"socket":0,"maxfreqhz":3681640000},{"cpuid":17,"socket":0,"maxfreqhz":3681640000},{"cpuid":18,"socket":0,"maxfreqhz":3681640000},{"cpuid":19,"socket":0,"maxfreqhz":3681640000},{"cpuid":20,"socket":0,"maxfreqhz":3681640000},{"cpuid":21,"socket":0,"maxfreqhz":3681640000},{"cpuid":22,"socket":0,"maxfreqhz":3681640000},{"cpuid":23,"socket":0,"maxfreqhz":3681640000},{"cpuid":24,"socket":0,"maxfreqhz":3681640000},{"cpuid":25,"socket":0,"maxfreqhz":3681640000},{"cpuid":26,"socket":0,"maxfreqhz":3681640000},{"cpuid":27,"socket":0,"maxfreqhz":3681640000},{"cpuid":28,"socket":0,"maxfreqhz":3681640000},{"cpuid":29,"socket":0,"maxfreqhz":3681640000},{"cpuid":30,"socket":0,"maxfreqhz":3681640000},{"cpuid":31,"socket":0,"maxfreqhz":3681640000},{"cpuid":32,"socket":1,"maxfreqhz":3681640000},{"cpuid":33,"socket":1,"maxfreqhz":3681640000},{"cpuid":34,"socket":1,"maxfreqhz":3681640000},{"cpuid":35,"socket":1,"maxfreqhz":3681640000},{"cpuid":36,"socket":1,"maxfreqhz":3681640000},{"cpuid":37,"socket":1,"maxfreqhz":3681640000},{"cpuid":38,"socket":1,"maxfreqhz":3681640000},{"cpuid":39,"socket":1,"maxfreqhz":3681640000},{"cpuid":40,"socket":1,"maxfreqhz":3681640000},{"cpuid":41,"socket":1,"maxfreqhz":3681640000},{"cpuid":42,"socket":1,"maxfreqhz":3681640000},{"cpuid":43,"socket":1,"maxfreqhz":3681640000},{"cpuid":44,"socket":1,"maxfreqhz":3681640000},{"cpuid":45,"socket":1,"maxfreqhz":3681640000},{"cpuid":46,"socket":1,"maxfreqhz":3681640000},{"cpuid":47,"socket":1,"maxfreqhz":3681640000},{"cpuid":48,"socket":1,"maxfreqhz":3681640000},{"cpuid":49,"socket":1,"maxfreqhz":3681640000},{"cpuid":50,"socket":1,"maxfreqhz":3681640000},{"cpuid":51,"socket":1,"maxfreqhz":3681640000},{"cpuid":52,"socket":1,"maxfreqhz":3681640000},{"cpuid":53,"socket":1,"maxfreqhz":3681640000},{"cpuid":54,"socket":1,"maxfreqhz":3681640000},{"cpuid":55,"socket":1,"maxfreqhz":3681640000},{"cpuid":56,"socket":1,"maxfreqhz":3681640000},{"cpuid":57,"socket":1,"maxfreqhz":3681640000},{"cpuid":58,"socket":1,"maxfreqhz":3681640000},{"cpuid":59,"socket":1,"maxfreqhz":3681640000},{"cpuid":60,"socket":1,"maxfreqhz":3681640000},{"cpuid":61,"socket":1,"maxfreqhz":3681640000},{"cpuid":62,"socket":1,"maxfreqhz":3681640000},{"cpuid":63,"socket":1,"maxfreqhz":3681640000},{"cpuid":64,"socket":0,"maxfreqhz":3681640000},{"cpuid":65,"socket":0,"maxfreqhz":3681640000},{"cpuid":66,"socket":0,"maxfreqhz":3681640000},{"cpuid":67,"socket":0,"maxfreqhz":3681640000},{"cpuid":68,"socket":0,"maxfreqhz":3681640000},{"cpuid":69,"socket":0,"maxfreqhz":3681640000},{"cpuid":70,"socket":0,"maxfreqhz":3681640000},{"cpuid":71,"socket":0,"maxfreqhz":3681640000},{"cpuid":72,"socket":0,"maxfreqhz":3681640000},{"cpuid":73,"socket":0,"maxfreqhz":3681640000},{"cpuid":74,"socket":0,"maxfreqhz":3681640000},{"cpuid":75,"socket":0,"maxfreqhz":3681640000},{"cpuid":76,"socket":0,"maxfreqhz":3681640000},{"cpuid":77,"socket":0,"maxfreqhz":3681640000},{"cpuid":78,"socket":0,"maxfreqhz":3681640000},{"cpuid":79,"socket":0,"maxfreqhz":3681640000},{"cpuid":80,"socket":0,"maxfreqhz":3681640000},{"cpuid":81,"socket":0,"maxfreqhz":3681640000},{"cpuid":82,"socket":0,"maxfreqhz":3681640000},{"cpuid":83,"socket":0,"maxfreqhz":3681640000},{"cpuid":84,"socket":0,"maxfreqhz":3681640000},{"cpuid":85,"socket":0,"maxfreqhz":3681640000},{"cpuid":86,"socket":0,"maxfreqhz":3681640000},{"cpuid":87,"socket":0,"maxfreqhz":3681640000},{"cpuid":88,"socket":0,"maxfreqhz":3681640000},{"cpuid":89,"socket":0,"maxfreqhz":3681640000},{"cpuid":90,"socket":0,"maxfreqhz":3681640000},{"cpuid":91,"socket":0,"maxfreqhz":3681640000},{"cpuid":92,"socket":0,"maxfreqhz":3681640000},{"cpuid":93,"socket":0,"maxfreqhz":3681640000},{"cpuid":94,"socket":0,"maxfreqhz":3681640000},{"cpuid":95,"socket":0,"maxfreqhz":3681640000},{"cpuid":96,"socket":1,"maxfreqhz":3681640000},{"cpuid":97,"socket":1,"maxfreqhz":3681640000},{"cpuid":98,"socket":1,"maxfreqhz":3681640000},{"cpuid":99,"socket":1,"maxfreqhz":3681640000},{"cpuid":100,"socket":1,"maxfreqhz":3681640000},{"cpuid":101,"socket":1,"maxfreqhz":3681640000},{"cpuid":102,"socket":1,"maxfreqhz":3681640000},{"cpuid":103,"socket":1,"maxfreqhz":3681640000},{"cpuid":104,"socket":1,"maxfreqhz":3681640000},{"cpuid":105,"socket":1,"maxfreqhz":3681640000},{"cpuid":106,"socket":1,"maxfreqhz":3681640000},{"cpuid":107,"socket":1,"maxfreqhz":3681640000},{"cpuid":108,"socket":1,"maxfreqhz":3681640000},{"cpuid":109,"socket":1,"maxfreqhz":3681640000},{"cpuid":110,"socket":1,"maxfreqhz":3681640000},{"cpuid":111,"socket":1,"maxfreqhz":3681640000},{"cpuid":112,"socket":1,"maxfreqhz":3681640000},{"cpuid":113,"socket":1,"maxfreqhz":3681640000},{"cpuid":114,"socket":1,"maxfreqhz":3681640000},{"cpuid":115,"socket":1,"maxfreqhz":3681640000},{"cpuid":116,"socket":1,"maxfreqhz":3681640000},{"cpuid":117,"socket":1,"maxfreqhz":3681640000},{"cpuid":118,"socket":1,"maxfreqhz":3681640000},{"cpuid":119,"socket":1,"maxfreqhz":3681640000},{"cpuid":120,"socket":1,"maxfreqhz":3681640000},{"cpuid":121,"socket":1,"maxfreqhz":3681640000},{"cpuid":122,"socket":1,"maxfreqhz":3681640000},{"cpuid":123,"socket":1,"maxfreqhz":3681640000},{"cpuid":124,"socket":1,"maxfreqhz":3681640000},{"cpuid":125,"socket":1,"maxfreqhz":3681640000},{"cpuid":126,"socket":1,"maxfreqhz":3681640000},{"cpuid":127,"socket":1,"maxfreqhz":3681640000}]}');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuEmcSpeedMhz',101,'1600');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','SupportsXmcClients',153,'0');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','TargetInstallDir',170,'/opt/nvidia/hpc_sdk/Linux_x86_64/26.5/profilers/13.2/Nsight_Systems/target-linux-x64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','HasDiscreteGpu',203,'0');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','NvDriverVersion',205,'595.71.05');
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT,                                  -- Start of the capture in local time of target.
    systemClockNs               INTEGER                                -- Target system clock timestamp at start of the capture (ns).
);
INSERT INTO "TARGET_INFO_SESSION_START_TIME" VALUES(1785534046022345374,'2026-07-31T21:40:46','2026-07-31T17:40:46',1571168225420775);
CREATE TABLE ANALYSIS_DETAILS (
    -- Details about the analysis session.

    globalVid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    duration                    INTEGER   NOT NULL,                    -- The total time span of the entire trace (ns).
    startTime                   INTEGER   NOT NULL,                    -- Trace start timestamp in nanoseconds.
    stopTime                    INTEGER   NOT NULL                     -- Trace stop timestamp in nanoseconds.
);
INSERT INTO "ANALYSIS_DETAILS" VALUES(281474976710656,2360853977,1571168225420775,1571170586274752);
CREATE TABLE DIAGNOSTIC_EVENT (
    timestamp                   INTEGER   NOT NULL,                    -- Event timestamp (ns).
    timestampType               INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE(id)
    source                      INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_SOURCE_TYPE(id)
    severity                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_SEVERITY_LEVEL(id)
    text                        TEXT      NOT NULL,                    -- Diagnostic message text
    globalPid                   INTEGER                                -- Serialized GlobalId.
);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(-49615344,1,2,1,'Dwarf backtraces collected.',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(-49610254,1,2,1,'Event ''CPU Cycles'', with sampling period 3681632, used to trigger process-tree CPU IP sample collection.',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(0,1,3,1,'Profiling has started.',-144115188075855872);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(53320,1,2,1,'Process was launched by the profiler, see /tmp/nvidia/nsight_systems/quadd_session_104005778/streams/pid_4005795_stdout.log and stderr.log for program output',348681064677376);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(43758995,1,1,1,'Common injection library initialized successfully.',348681064677376);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(763197480,2,3,2,'Not all NVTX events might have been collected.',348681064677376);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(763201160,2,3,2,'No NVTX events collected. Does the process use NVTX?',348681064677376);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(763202580,2,3,2,'CUDA profiling might have not been started correctly.',348681064677376);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(763203140,2,3,2,'No CUDA events collected. Does the process use CUDA?',348681064677376);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(2360853977,1,3,1,'Profiling has stopped.',-144115188075855872);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(2580442662,1,2,1,'Number of IP samples collected: 	2003.',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(25925664827,1,2,1,'Number of Debuginfod queries: 2 (successful queries: 0, timed out queries: 2).',281474976710656);
CREATE TABLE PROCESSES (
    -- Names and identifiers of processes captured in the report.

    globalPid                   INTEGER,                               -- Serialized GlobalId.
    pid                         INTEGER,                               -- The process ID.
    name                        TEXT                                   -- The process name.
);
INSERT INTO "PROCESSES" VALUES(281478181158912,191,'migration/29');
INSERT INTO "PROCESSES" VALUES(281481905700864,413,'migration/66');
INSERT INTO "PROCESSES" VALUES(281483767971840,524,'kworker/84:0H-events_highpri');
INSERT INTO "PROCESSES" VALUES(281477845614592,171,'cpuhp/26');
INSERT INTO "PROCESSES" VALUES(281476318887936,80,'kworker/10:0H');
INSERT INTO "PROCESSES" VALUES(324969892413440,2592499,'vim');
INSERT INTO "PROCESSES" VALUES(325048594333696,2597190,'vim');
INSERT INTO "PROCESSES" VALUES(334021519212544,3132018,'code-5264f2156c');
INSERT INTO "PROCESSES" VALUES(313165996883968,1888932,'(sd-pam)');
INSERT INTO "PROCESSES" VALUES(348322619457536,3984430,'kworker/2:0');
INSERT INTO "PROCESSES" VALUES(317804628672512,2165416,'kworker/60:1-mm_percpu_wq');
INSERT INTO "PROCESSES" VALUES(328265491283968,2788932,'ssh-agent');
CREATE TABLE COMPOSITE_EVENTS (
    -- Thread sampling events.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID of the composite event.
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    cpu                         INTEGER,                               -- ID of CPU this thread was running on.
    threadState                 INTEGER,                               -- REFERENCES ENUM_SAMPLING_THREAD_STATE(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    cpuCycles                   INTEGER   NOT NULL                     -- Value of Performance Monitoring Unit (PMU) counter.
);
INSERT INTO "COMPOSITE_EVENTS" VALUES(1,2784917,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(2,3898137,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(3,5130266,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(4,6132798,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(5,7134989,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(6,8533367,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(7,9537049,0,1,348681337118643,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(8,11906238,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(9,13466595,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(10,14853073,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(11,16179072,0,1,348681068683171,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(12,17181213,0,1,348681068683171,1);
CREATE TABLE SAMPLING_CALLCHAINS (
    -- Callchain entries obtained from composite events, used to construct function table views.

    id                          INTEGER   NOT NULL,                    -- REFERENCES COMPOSITE_EVENTS(id)
    symbol                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    module                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Module name
    kernelMode                  INTEGER,                               -- True if kernel mode.
    thumbCode                   INTEGER,                               -- True if thumb code.
    unresolved                  INTEGER,                               -- True if the symbol was not resolved.
    specialEntry                INTEGER,                               -- True if artifical entry added during processing callchain.
    originalIP                  INTEGER,                               -- Instruction pointer value.
    unwindMethod                INTEGER,                               -- REFERENCES ENUM_STACK_UNWIND_METHOD(id)
    stackDepth                  INTEGER   NOT NULL,                    -- Zero-base index of the given function in call stack.

    PRIMARY KEY (id, stackDepth)
);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(1,67,62,0,0,0,NULL,132573597919203,0,0);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(2,76,62,0,0,0,NULL,132573597848486,0,0);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(3,81,1,1,0,1,NULL,-1553616703,0,0);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,82,1,1,0,1,NULL,-1539481177,7,0);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,83,0,0,0,1,NULL,-1553790396,1,1);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,84,0,0,0,1,NULL,-1553788572,1,2);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,85,0,0,0,1,NULL,-1553787846,1,3);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,86,0,0,0,1,NULL,-1557299303,1,4);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,87,0,0,0,1,NULL,-1538962141,1,5);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,88,0,0,0,1,NULL,-1537209401,1,6);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,89,62,0,0,0,NULL,132573597878540,7,7);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,90,62,0,0,0,NULL,132573597955977,7,8);
CREATE TABLE SCHED_EVENTS (
    -- Thread scheduling events.

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    cpu                         INTEGER   NOT NULL,                    -- ID of CPU this thread was scheduled in or out.
    isSchedIn                   INTEGER   NOT NULL,                    -- 0 if thread was scheduled out, non-zero otherwise.
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    threadState                 INTEGER,                               -- REFERENCES ENUM_SAMPLING_THREAD_STATE(id)
    threadBlock                 INTEGER                                -- REFERENCES ENUM_SCHEDULING_THREAD_BLOCK(id)
);
INSERT INTO "SCHED_EVENTS" VALUES(1616517,0,1,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(1738256,0,0,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(1904684,0,1,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(3382731,0,0,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(3498710,0,1,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(3983166,0,0,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(4133725,0,1,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(4172025,0,0,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(4259054,0,1,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(7713924,0,0,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(7863513,0,1,348681068683171,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(8009192,0,0,348681068683171,0,NULL);
CREATE TABLE PROFILER_OVERHEAD (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    overheadType                INTEGER   NOT NULL                     -- REFERENCES ENUM_CUPTI_OVERHEAD_TYPE(id)
);
INSERT INTO "PROFILER_OVERHEAD" VALUES(26075587,43761465,348681068683171,22,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(42874893,43241170,348681068683171,19,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(42886533,43205750,348681068683171,18,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(43770945,44508649,348681068683171,25,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(43263330,43725176,348681068683188,19,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(43938774,44306501,348681068683189,19,0);
CREATE TABLE ThreadNames (
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Thread name
    priority                    INTEGER,                               -- Priority of the thread.
    globalTid                   INTEGER                                -- Serialized GlobalId.
);
INSERT INTO "ThreadNames" VALUES(98,20,281474993487873);
INSERT INTO "ThreadNames" VALUES(99,20,281475010265090);
INSERT INTO "ThreadNames" VALUES(100,20,281475027042307);
INSERT INTO "ThreadNames" VALUES(101,20,281475043819524);
INSERT INTO "ThreadNames" VALUES(102,20,281475060596741);
INSERT INTO "ThreadNames" VALUES(103,20,281475077373958);
INSERT INTO "ThreadNames" VALUES(104,20,281475094151175);
INSERT INTO "ThreadNames" VALUES(105,20,281475144482826);
INSERT INTO "ThreadNames" VALUES(106,20,281475178037260);
INSERT INTO "ThreadNames" VALUES(107,20,281475194814477);
INSERT INTO "ThreadNames" VALUES(108,20,281475211591694);
INSERT INTO "ThreadNames" VALUES(109,20,281475228368911);
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
INSERT INTO "TARGET_INFO_GPU" VALUES(281474976710656,1,'NVIDIA A100 80GB PCIe','0000:35:00.0',1,41943040,85094825984,1935360000000,1410000000,108,1,'d7e17efe-e923-9e68-5a7e-036785e0aeec',0,'GA100',1,'','',161,0,65536,4,65536,49152,166912,167936,65536,32,3,64,32,1024,1024,1024,64,2147483647,65535,65535,8,0,8,2);
INSERT INTO "TARGET_INFO_GPU" VALUES(281474976710656,0,'NVIDIA A100 80GB PCIe','0000:32:00.0',1,41943040,85094825984,1935360000000,1410000000,108,0,'7fe06e87-5166-47d7-c8b8-437082124e19',0,'GA100',0,'','',161,0,65536,4,65536,49152,166912,167936,65536,32,3,64,32,1024,1024,1024,64,2147483647,65535,65535,8,0,8,2);
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
INSERT INTO "ENUM_STACK_UNWIND_METHOD" VALUES(255,'Undefined','Undefined');
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
CREATE TABLE ENUM_DIAGNOSTIC_SEVERITY_LEVEL (
    -- Diagnostic message severity level labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_DIAGNOSTIC_SEVERITY_LEVEL" VALUES(0,'UnknownLevel','Unknown');
INSERT INTO "ENUM_DIAGNOSTIC_SEVERITY_LEVEL" VALUES(1,'Info','Info');
INSERT INTO "ENUM_DIAGNOSTIC_SEVERITY_LEVEL" VALUES(2,'Warning','Warning');
INSERT INTO "ENUM_DIAGNOSTIC_SEVERITY_LEVEL" VALUES(3,'Error','Error');
INSERT INTO "ENUM_DIAGNOSTIC_SEVERITY_LEVEL" VALUES(4,'Verbose','Verbose');
CREATE TABLE ENUM_DIAGNOSTIC_SOURCE_TYPE (
    -- Diagnostic message source type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_DIAGNOSTIC_SOURCE_TYPE" VALUES(0,'UnknownSource','Unknown source');
INSERT INTO "ENUM_DIAGNOSTIC_SOURCE_TYPE" VALUES(1,'Injection','Injection');
INSERT INTO "ENUM_DIAGNOSTIC_SOURCE_TYPE" VALUES(2,'Daemon','Daemon');
INSERT INTO "ENUM_DIAGNOSTIC_SOURCE_TYPE" VALUES(3,'Analysis','Analysis');
CREATE TABLE ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE (
    -- Diagnostic message timestamp source lables

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE" VALUES(0,'UnknownTimestamp','Unknown timestamp');
INSERT INTO "ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE" VALUES(1,'TargetTimestamp','Target timestamp');
INSERT INTO "ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE" VALUES(2,'HostTimestamp','Host timestamp');
CREATE TABLE META_DATA_CAPTURE (
    -- information about nsys capture parameters

    name                        TEXT      NOT NULL,                    -- Name of meta-data record
    value                       TEXT                                   -- Value of meta-data record
);
INSERT INTO "META_DATA_CAPTURE" VALUES('DEVICE_ID','Local (CLI)');
INSERT INTO "META_DATA_CAPTURE" VALUES('CAPTURE_EVENT_TYPE','NvtxEvents');
INSERT INTO "META_DATA_CAPTURE" VALUES('CAPTURE_EVENT_TYPE','Cuda');
INSERT INTO "META_DATA_CAPTURE" VALUES('RATE_HZ','0');
INSERT INTO "META_DATA_CAPTURE" VALUES('START_TRIGGER','Immediate');
INSERT INTO "META_DATA_CAPTURE" VALUES('STOP_TRIGGER','Delayed');
INSERT INTO "META_DATA_CAPTURE" VALUES('THREAD_STATE_SCAN_FREQ','50');
INSERT INTO "META_DATA_CAPTURE" VALUES('POWER_RATE_SCAN_FREQ','50');
INSERT INTO "META_DATA_CAPTURE" VALUES('DEVICE_TYPE','Unix');
INSERT INTO "META_DATA_CAPTURE" VALUES('DEVICE_DISPLAY_NAME','milan0.ftpn.ornl.gov');
INSERT INTO "META_DATA_CAPTURE" VALUES('CUDA_GRAPH_TRACE_OPTIONS:MODE','Graph');
INSERT INTO "META_DATA_CAPTURE" VALUES('CUDA_GRAPH_TRACE_OPTIONS:TRACE_DEVICE_GRAPH_LAUNCH','true');
CREATE TABLE META_DATA_EXPORT (
    -- information about nsys export process

    name                        TEXT      NOT NULL,                    -- Name of meta-data record
    value                       TEXT                                   -- Value of meta-data record
);
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PRODUCT_NAME','NVIDIA Nsight Systems');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PRODUCT_VERSION','2026.2.1.210');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PRODUCT_DATE','2026.2');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION','3.25.0');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_MAJOR','3');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_MINOR','25');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_MICRO','0');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_CKSUM','306658267 182758');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PLATFORM','linux-desktop');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_ARCH','x64');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_TIME_UTC','2026-07-31T21:41:12');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_TIME_LOCAL','2026-07-31T17:41:12 -0400 EDT');
