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
INSERT INTO "ANALYSIS_FILE" VALUES(0,'/tmp/nvidia/nsight_systems/quadd_session_102568462/streams/pid_2568473_stdout.log',31,324566803021824);
INSERT INTO "ANALYSIS_FILE" VALUES(1,'/tmp/nvidia/nsight_systems/quadd_session_102568462/streams/pid_2568473_stderr.log',18,324566803021824);
CREATE TABLE ProcessStreams (
    globalPid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    filenameId                  INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- File name
    contentId                   INTEGER   NOT NULL                     -- REFERENCES StringIds(id) -- Stream content
);
INSERT INTO "ProcessStreams" VALUES(324566803021824,30,31);
INSERT INTO "ProcessStreams" VALUES(324566803021824,17,18);
CREATE TABLE TARGET_INFO_SYSTEM_ENV (
    globalVid                   INTEGER,                               -- Serialized GlobalId.
    devStateName                TEXT      NOT NULL,                    -- Device state name.
    name                        TEXT      NOT NULL,                    -- Property name.
    nameEnum                    INTEGER   NOT NULL,                    -- Property enum value.
    value                       TEXT      NOT NULL                     -- Property value.
);
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuCores',1,'16');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuSpeedMhz',2,'4426.6669999999995');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuArchitecture',3,'x86_64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','SupportedABIs',5,'x86_64,');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','Supported64BitABIs',7,'x86_64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuDescription',13,'AMD Ryzen 7 3700X 8-Core Processor');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuInfo',14,'{"items":[{"cpuid":0,"socket":0,"maxfreqhz":4426667000},{"cpuid":1,"socket":0,"maxfreqhz":4426667000},{"cpuid":2,"socket":0,"maxfreqhz":4426667000},{"cpuid":3,"socket":0,"maxfreqhz":4426667000},{"cpuid":4,"socket":0,"maxfreqhz":4426667000},{"cpuid":5,"socket":0,"maxfreqhz":4426667000},{"cpuid":6,"socket":0,"maxfreqhz":4426667000},{"cpuid":7,"socket":0,"maxfreqhz":4426667000},{"cpuid":8,"socket":0,"maxfreqhz":4426667000},{"cpuid":9,"socket":0,"maxfreqhz":4426667000},{"cpuid":10,"socket":0,"maxfreqhz":4426667000},{"cpuid":11,"socket":0,"maxfreqhz":4426667000},{"cpuid":12,"socket":0,"maxfreqhz":4426667000},{"cpuid":13,"socket":0,"maxfreqhz":4426667000},{"cpuid":14,"socket":0,"maxfreqhz":4426667000},{"cpuid":15,"socket":0,"maxfreqhz":4426667000}]}');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuEmcSpeedMhz',101,'1600');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','SupportsXmcClients',153,'0');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','TargetInstallDir',170,'/var/home/fraser/nvidia/hpc_sdk/Linux_x86_64/25.9/profilers/13.0/Nsight_Systems/target-linux-x64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','HasDiscreteGpu',203,'0');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','NvDriverVersion',205,'580.105.08');
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT                                   -- Start of the capture in local time of target.
);
INSERT INTO "TARGET_INFO_SESSION_START_TIME" VALUES(1763851018220901611,'2025-11-22T22:36:58','2025-11-22T14:36:58');
CREATE TABLE ANALYSIS_DETAILS (
    -- Details about the analysis session.

    globalVid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    duration                    INTEGER   NOT NULL,                    -- The total time span of the entire trace (ns).
    startTime                   INTEGER   NOT NULL,                    -- Trace start timestamp in nanoseconds.
    stopTime                    INTEGER   NOT NULL                     -- Trace stop timestamp in nanoseconds.
);
INSERT INTO "ANALYSIS_DETAILS" VALUES(281474976710656,880010422,178285347616327,178286227626749);
CREATE TABLE DIAGNOSTIC_EVENT (
    timestamp                   INTEGER   NOT NULL,                    -- Event timestamp (ns).
    timestampType               INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE(id)
    source                      INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_SOURCE_TYPE(id)
    severity                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_SEVERITY_LEVEL(id)
    text                        TEXT      NOT NULL,                    -- Diagnostic message text
    globalPid                   INTEGER                                -- Serialized GlobalId.
);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(-19137134,1,2,2,'Unable to collect CPU kernel IP/backtrace samples. perf event paranoid level is 2. 
Change the paranoid level to 1 to enable CPU kernel sample collection.
Try
sudo sh -c ''echo 1 >/proc/sys/kernel/perf_event_paranoid''
 to change the paranoid level to 1.',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(-18807207,1,2,1,'Dwarf backtraces collected.',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(-18804887,1,2,1,'Event ''CPU Cycles'', with sampling period 4426656, used to trigger process-tree CPU IP sample collection.',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(-104572,1,2,1,'4 CPU IP samples collected for every CPU IP backtrace collected.',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(0,1,3,1,'Profiling has started.',-144115188075855872);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(74221,1,2,1,'Process was launched by the profiler, see /tmp/nvidia/nsight_systems/quadd_session_102568462/streams/pid_2568473_stdout.log and stderr.log for program output',324566803021824);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(110339460,2,3,2,'No NVTX events collected. Does the process use NVTX?',324566803021824);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(110342090,2,3,2,'No OpenGL events collected. Does the process use OpenGL?',324566803021824);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(110344590,2,3,1,'Number of CUDA events collected: 	24.',324566803021824);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(110346130,2,3,1,'Number of OS runtime libraries events collected: 	695.',324566803021824);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(133688569,1,1,1,'Common injection library initialized successfully.',324566803021824);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(150727399,1,1,1,'OS runtime libraries injection initialized successfully.',324566803021824);
CREATE TABLE PROFILER_OVERHEAD (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    returnValue                 INTEGER   NOT NULL                     -- Return value of the function call.
);
INSERT INTO "PROFILER_OVERHEAD" VALUES(133448424,133675658,324566805590297,33,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(133467754,133659478,324566805590297,32,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(133702259,134016245,324566805590309,33,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(133708369,134249130,324566805590310,33,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(142991980,143017831,324566805590297,35,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(143033191,150732559,324566805590297,37,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(150734879,150750310,324566805590297,35,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(150775820,168205139,324566805590297,39,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(168183279,168195119,324566805590297,35,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(172085259,172373055,324566805590312,33,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(172156610,398039679,324566805590297,1042,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(180921881,181546894,324566805590297,1027,0);
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
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(424728608,424729688,1,324566805590297,1,1330,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(424987003,543626975,0,324566805590297,118,1346,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545331910,545332170,0,324566805590297,144,1351,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545335400,545374871,0,324566805590297,148,1352,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545375121,545378941,0,324566805590297,149,1352,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545379141,545381221,0,324566805590297,150,1352,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545381441,545383391,0,324566805590297,151,1352,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545383571,545394151,0,324566805590297,152,1352,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545394341,545396401,0,324566805590297,153,1352,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545396591,545398571,0,324566805590297,154,1352,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545398731,545400751,0,324566805590297,155,1352,0,NULL);
INSERT INTO "CUPTI_ACTIVITY_KIND_RUNTIME" VALUES(545400921,545573515,0,324566805590297,156,1352,0,NULL);
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
INSERT INTO "CUPTI_ACTIVITY_KIND_MEMSET" VALUES(554351169,554352641,0,1,0,13,165,324566803021824,0,4608,NULL,2);
CREATE TABLE PROCESSES (
    -- Names and identifiers of processes captured in the report.

    globalPid                   INTEGER,                               -- Serialized GlobalId.
    pid                         INTEGER,                               -- The process ID.
    name                        TEXT                                   -- The process name.
);
INSERT INTO "PROCESSES" VALUES(281476771872768,107,'idle_inject/15');
INSERT INTO "PROCESSES" VALUES(281477191303168,132,'kworker/R-ata_sff');
INSERT INTO "PROCESSES" VALUES(281476352442368,82,'cpuhp/11');
INSERT INTO "PROCESSES" VALUES(281477812060160,169,'scsi_eh_6');
INSERT INTO "PROCESSES" VALUES(281475580690432,36,'migration/3');
INSERT INTO "PROCESSES" VALUES(324441208782848,2560987,'kworker/u66:5-kcryptd-252:0-1');
INSERT INTO "PROCESSES" VALUES(322185763749888,2426552,'Enpass');
INSERT INTO "PROCESSES" VALUES(281477845614592,171,'scsi_eh_7');
INSERT INTO "PROCESSES" VALUES(281475782017024,48,'migration/5');
INSERT INTO "PROCESSES" VALUES(281475362586624,23,'idle_inject/1');
INSERT INTO "PROCESSES" VALUES(322185746972672,2426551,'bwrap');
INSERT INTO "PROCESSES" VALUES(281476201447424,73,'ksoftirqd/9');
CREATE TABLE COMPOSITE_EVENTS (
    -- Thread sampling events.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID of the composite event.
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    cpu                         INTEGER,                               -- ID of CPU this thread was running on.
    threadState                 INTEGER,                               -- REFERENCES ENUM_SAMPLING_THREAD_STATE(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    cpuCycles                   INTEGER   NOT NULL                     -- Value of Performance Monitoring Unit (PMU) counter.
);
INSERT INTO "COMPOSITE_EVENTS" VALUES(1,8085946,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(2,177456750,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(3,178501312,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(4,179544283,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(5,180594165,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(6,183089926,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(7,192270915,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(8,205864515,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(9,219243740,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(10,499546916,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(11,500596127,0,1,324566805590297,1);
INSERT INTO "COMPOSITE_EVENTS" VALUES(12,77591166,10,1,324566805590297,1);
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
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(1,909,109,0,0,0,NULL,140137705806395,0,0);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(2,1018,167,0,0,1,NULL,140137699454646,0,0);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(3,962,58,0,0,0,NULL,140136758456658,0,0);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,1019,904,0,0,1,NULL,140137704010697,7,0);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,1020,167,0,0,1,NULL,140137699182313,7,1);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,1021,167,0,0,1,NULL,140137692979887,7,2);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,997,167,0,0,1,NULL,140137693010105,7,3);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,998,167,0,0,1,NULL,140137693013756,7,4);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,1000,167,0,0,1,NULL,140137690928152,7,5);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,1001,930,0,0,1,NULL,140136618695824,7,6);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,1002,930,0,0,1,NULL,140136618696139,7,7);
INSERT INTO "SAMPLING_CALLCHAINS" VALUES(4,1003,930,0,0,1,NULL,140136616641885,7,8);
CREATE TABLE OSRT_API (
    -- OS runtime libraries traced to gather information about low-level userspace APIs.

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventClass                  INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_CLASS(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    returnValue                 INTEGER   NOT NULL,                    -- Return value of the function call.
    nestingLevel                INTEGER,                               -- Zero-base index of the nesting level.
    callchainId                 INTEGER   NOT NULL,                    -- REFERENCES OSRT_CALLCHAINS(id)
    argumentsId                 INTEGER   NOT NULL                     -- REFERENCES OSRT_ARGUMENTS(id) -- Experimental.
);
INSERT INTO "OSRT_API" VALUES(168516795,168521916,27,324566805590297,40,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(168524696,168531266,27,324566805590297,40,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(171413175,171426405,27,324566805590297,43,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(171435505,171437676,27,324566805590297,45,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(171437986,171442196,27,324566805590297,43,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(171488347,171505547,27,324566805590297,45,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(171506197,171514977,27,324566805590297,43,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(171814223,171816143,27,324566805590297,45,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(171846544,171975037,27,324566805590297,47,0,0,1,0);
INSERT INTO "OSRT_API" VALUES(171985987,171992707,27,324566805590297,1022,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(171993007,171995467,27,324566805590297,1022,0,0,0,0);
INSERT INTO "OSRT_API" VALUES(172002577,172092599,27,324566805590297,1023,0,0,2,0);
CREATE TABLE OSRT_CALLCHAINS (
    -- Callchains attached to OSRT events, depending on selected profiling settings.

    id                          INTEGER   NOT NULL,                    -- Part of PRIMARY KEY (id, stackDepth).
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
INSERT INTO "OSRT_CALLCHAINS" VALUES(1,999,58,0,0,0,NULL,140136757585536,NULL,0);
INSERT INTO "OSRT_CALLCHAINS" VALUES(1,1013,930,0,0,1,NULL,140136616943636,NULL,1);
INSERT INTO "OSRT_CALLCHAINS" VALUES(1,1014,930,0,0,1,NULL,140136617887532,NULL,2);
INSERT INTO "OSRT_CALLCHAINS" VALUES(1,1016,930,0,0,1,NULL,140136616643364,NULL,3);
INSERT INTO "OSRT_CALLCHAINS" VALUES(1,1004,930,0,0,1,NULL,140136616903922,NULL,4);
INSERT INTO "OSRT_CALLCHAINS" VALUES(1,1005,930,0,0,0,NULL,140136616844496,NULL,5);
INSERT INTO "OSRT_CALLCHAINS" VALUES(1,1006,990,0,0,1,NULL,140136583673932,NULL,6);
INSERT INTO "OSRT_CALLCHAINS" VALUES(2,1024,58,0,0,0,NULL,140136757581872,NULL,0);
INSERT INTO "OSRT_CALLCHAINS" VALUES(2,1025,930,0,0,1,NULL,140136616945291,NULL,1);
INSERT INTO "OSRT_CALLCHAINS" VALUES(2,1026,930,0,0,1,NULL,140136616642681,NULL,2);
INSERT INTO "OSRT_CALLCHAINS" VALUES(2,1004,930,0,0,1,NULL,140136616903922,NULL,3);
INSERT INTO "OSRT_CALLCHAINS" VALUES(2,1005,930,0,0,0,NULL,140136616844496,NULL,4);
CREATE TABLE OSRT_FILE_ACCESS_EVENTS (
    -- OS Runtime events related to file accesses (opening, closing, reading, and writing).

    fileAccessId                INTEGER   NOT NULL,                    -- REFERENCES OSRT_FILE_ACCESS_DESCRIPTORS(fileAccessId)
    threadId                    INTEGER   NOT NULL,                    -- Thread ID.
    startedAt                   INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    endedAt                     INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventType                   INTEGER   NOT NULL,                    -- REFERENCES ENUM_OSRT_FILE_ACCESS_EVENT_TYPE(id)
    apiCallId                   INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    bytesProcessed              INTEGER   NOT NULL                     -- Actual bytes read/written.
);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(0,2568473,183767109,183771919,1,1030,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(1,2568473,183773819,183780290,1,1031,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(2,2568473,401345177,401350287,1,1030,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(3,2568473,401351987,401360507,1,1031,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(4,2568473,401583872,401586672,1,1030,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(5,2568473,401587842,401592112,1,1031,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(6,2568473,401890528,401895338,1,1031,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(7,2568473,401896248,401898918,1,1031,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(8,2568473,402024051,402030451,1,1030,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(9,2568473,402109873,402114263,1,1030,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(10,2568473,403981351,403986571,1,1030,0);
INSERT INTO "OSRT_FILE_ACCESS_EVENTS" VALUES(11,2568473,408311110,408319510,1,1030,0);
CREATE TABLE SCHED_EVENTS (
    -- Thread scheduling events.

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    cpu                         INTEGER   NOT NULL,                    -- ID of CPU this thread was scheduled in or out.
    isSchedIn                   INTEGER   NOT NULL,                    -- 0 if thread was scheduled out, non-zero otherwise.
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    threadState                 INTEGER,                               -- REFERENCES ENUM_SAMPLING_THREAD_STATE(id)
    threadBlock                 INTEGER                                -- REFERENCES ENUM_SCHEDULING_THREAD_BLOCK(id)
);
INSERT INTO "SCHED_EVENTS" VALUES(70320296,10,1,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(70679424,10,0,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(70786756,10,1,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(72021471,10,0,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(73365649,10,1,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(121149042,10,0,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(130664318,10,1,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(130951774,10,0,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(131990105,10,1,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(132136368,10,0,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(133293102,10,1,324566805590297,0,NULL);
INSERT INTO "SCHED_EVENTS" VALUES(168962165,10,0,324566805590297,0,NULL);
CREATE TABLE ThreadNames (
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Thread name
    priority                    INTEGER,                               -- Priority of the thread.
    globalTid                   INTEGER                                -- Serialized GlobalId.
);
INSERT INTO "ThreadNames" VALUES(184,20,281474993487873);
INSERT INTO "ThreadNames" VALUES(185,20,281475010265090);
INSERT INTO "ThreadNames" VALUES(186,20,281475027042307);
INSERT INTO "ThreadNames" VALUES(187,20,281475043819524);
INSERT INTO "ThreadNames" VALUES(188,20,281475060596741);
INSERT INTO "ThreadNames" VALUES(189,20,281475077373958);
INSERT INTO "ThreadNames" VALUES(190,20,281475094151175);
INSERT INTO "ThreadNames" VALUES(191,20,281475110928392);
INSERT INTO "ThreadNames" VALUES(192,20,281475144482826);
INSERT INTO "ThreadNames" VALUES(193,20,281475178037260);
INSERT INTO "ThreadNames" VALUES(194,20,281475194814477);
INSERT INTO "ThreadNames" VALUES(195,20,281475211591694);
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
INSERT INTO "TARGET_INFO_GPU" VALUES(281474976710656,0,'NVIDIA GeForce RTX 4060','0000:07:00.0',1,25165824,8181776384,272032000000,2460000000,24,0,'8c488143-5bb2-7837-e33f-e95eacbcc0d2',0,'AD107',0,'','',161,0,65536,4,65536,49152,101376,102400,65536,32,2,48,24,1024,1024,1024,64,2147483647,65535,65535,8,9,8,9);
CREATE TABLE TARGET_INFO_CUDA_DEVICE (
    gpuId                       INTEGER,                               -- GPU ID.
    cudaId                      INTEGER   NOT NULL,                    -- CUDA device ID.
    pid                         INTEGER   NOT NULL                     -- Process ID.
);
INSERT INTO "TARGET_INFO_CUDA_DEVICE" VALUES(0,0,2568473);
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
INSERT INTO "TARGET_INFO_CUDA_CONTEXT_INFO" VALUES(7,0,1,2568473,0,1,0,0);
CREATE TABLE TARGET_INFO_CUDA_STREAM (
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    hwId                        INTEGER   NOT NULL,                    -- Hardware ID.
    vmId                        INTEGER   NOT NULL,                    -- VM ID.
    processId                   INTEGER   NOT NULL,                    -- Process ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    priority                    INTEGER   NOT NULL,                    -- Priority of the stream.
    flag                        INTEGER   NOT NULL                     -- REFERENCES ENUM_CUPTI_STREAM_TYPE(id)
);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(28,0,1,2568473,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(26,0,1,2568473,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(25,0,1,2568473,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(24,0,1,2568473,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(23,0,1,2568473,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(22,0,1,2568473,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(21,0,1,2568473,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(19,0,1,2568473,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(6,0,1,2568473,1,0,1);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(7,0,1,2568473,1,0,3);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(11,0,1,2568473,1,0,2);
INSERT INTO "TARGET_INFO_CUDA_STREAM" VALUES(27,0,1,2568473,1,0,2);
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
INSERT INTO "ENUM_CUDA_MEMPOOL_TYPE" VALUES(0,'CUPTI_ACTIVITY_MEMORY_POOL_TYPE_INVALID','Invalid');
INSERT INTO "ENUM_CUDA_MEMPOOL_TYPE" VALUES(1,'CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL','Local');
INSERT INTO "ENUM_CUDA_MEMPOOL_TYPE" VALUES(2,'CUPTI_ACTIVITY_MEMORY_POOL_TYPE_IMPORTED','Imported');
CREATE TABLE ENUM_CUDA_MEMPOOL_OPER (
    -- CUDA mempool operation labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_CUDA_MEMPOOL_OPER" VALUES(0,'CUPTI_ACTIVITY_MEMORY_POOL_OPERATION_TYPE_INVALID','Invalid');
INSERT INTO "ENUM_CUDA_MEMPOOL_OPER" VALUES(1,'CUPTI_ACTIVITY_MEMORY_POOL_OPERATION_TYPE_CREATED','Created');
INSERT INTO "ENUM_CUDA_MEMPOOL_OPER" VALUES(2,'CUPTI_ACTIVITY_MEMORY_POOL_OPERATION_TYPE_DESTROYED','Destroyed');
INSERT INTO "ENUM_CUDA_MEMPOOL_OPER" VALUES(3,'CUPTI_ACTIVITY_MEMORY_POOL_OPERATION_TYPE_TRIMMED','Trimmed');
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
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(0,'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_UNKNOWN','Unknown');
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(1,'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_READ','Read');
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(2,'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_WRITE','Write');
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(3,'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_ATOMIC','Atomic');
INSERT INTO "ENUM_CUDA_UNIF_MEM_ACCESS_TYPE" VALUES(4,'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_PREFETCH','Prefetch');
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
CREATE TABLE ENUM_OSRT_FILE_ACCESS_EVENT_TYPE (
    -- OSRT File Access event type

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO "ENUM_OSRT_FILE_ACCESS_EVENT_TYPE" VALUES(1,'Open','OSRT Open File Action');
INSERT INTO "ENUM_OSRT_FILE_ACCESS_EVENT_TYPE" VALUES(2,'Close','OSRT Close File Action');
INSERT INTO "ENUM_OSRT_FILE_ACCESS_EVENT_TYPE" VALUES(3,'Read','OSRT Read from File Action');
INSERT INTO "ENUM_OSRT_FILE_ACCESS_EVENT_TYPE" VALUES(4,'Write','OSRT Write to File Action');
INSERT INTO "ENUM_OSRT_FILE_ACCESS_EVENT_TYPE" VALUES(6,'Metadata','OSRT Metadata File Action');
CREATE TABLE META_DATA_CAPTURE (
    -- information about nsys capture parameters

    name                        TEXT      NOT NULL,                    -- Name of meta-data record
    value                       TEXT                                   -- Value of meta-data record
);
INSERT INTO "META_DATA_CAPTURE" VALUES('DEVICE_ID','Local (CLI)');
INSERT INTO "META_DATA_CAPTURE" VALUES('CAPTURE_EVENT_TYPE','OSRuntime');
INSERT INTO "META_DATA_CAPTURE" VALUES('CAPTURE_EVENT_TYPE','Graphics');
INSERT INTO "META_DATA_CAPTURE" VALUES('CAPTURE_EVENT_TYPE','NvtxEvents');
INSERT INTO "META_DATA_CAPTURE" VALUES('CAPTURE_EVENT_TYPE','Cuda');
INSERT INTO "META_DATA_CAPTURE" VALUES('RATE_HZ','0');
INSERT INTO "META_DATA_CAPTURE" VALUES('START_TRIGGER','Immediate');
INSERT INTO "META_DATA_CAPTURE" VALUES('STOP_TRIGGER','Delayed');
INSERT INTO "META_DATA_CAPTURE" VALUES('THREAD_STATE_SCAN_FREQ','50');
INSERT INTO "META_DATA_CAPTURE" VALUES('POWER_RATE_SCAN_FREQ','50');
INSERT INTO "META_DATA_CAPTURE" VALUES('DEVICE_TYPE','Unix');
INSERT INTO "META_DATA_CAPTURE" VALUES('DEVICE_DISPLAY_NAME','vengeance');
CREATE TABLE META_DATA_EXPORT (
    -- information about nsys export process

    name                        TEXT      NOT NULL,                    -- Name of meta-data record
    value                       TEXT                                   -- Value of meta-data record
);
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PRODUCT_NAME','NVIDIA Nsight Systems');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PRODUCT_VERSION','2025.5.1.121');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PRODUCT_DATE','2025.5');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION','3.23.3');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_MAJOR','3');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_MINOR','23');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_MICRO','3');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_CKSUM','1413930468 168278');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PLATFORM','linux-desktop');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_ARCH','x64');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_TIME_UTC','2025-11-22T22:37:00');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_TIME_LOCAL','2025-11-22T14:37:00 -0800 PST');
CREATE TABLE OSRT_FILE_ACCESS_DESCRIPTORS (
    -- Metadata of all the file accesses that were made by the OS during the recording.

    fileAccessId                INTEGER   NOT NULL,                    -- File Access Id.
    processId                   INTEGER   NOT NULL,                    -- Process ID.
    openedAt                    INTEGER   NOT NULL,                    -- The time when the file was opened (ns).
    closedAt                    INTEGER   NOT NULL,                    -- The time when the file was closed (ns).
    filePath                    TEXT      NOT NULL                     -- The opened file path.
);
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(0,2568473,183767109,0,'Unknown file #0');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(1,2568473,183773819,0,'Unknown file #1');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(2,2568473,401345177,0,'Unknown file #2');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(3,2568473,401351987,0,'Unknown file #3');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(4,2568473,401583872,0,'Unknown file #4');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(5,2568473,401587842,0,'Unknown file #5');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(6,2568473,401890528,0,'Unknown file #6');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(7,2568473,401896248,0,'Unknown file #7');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(8,2568473,402024051,0,'Unknown file #8');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(9,2568473,402109873,0,'Unknown file #9');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(10,2568473,403981351,0,'Unknown file #10');
INSERT INTO "OSRT_FILE_ACCESS_DESCRIPTORS" VALUES(11,2568473,408311110,0,'Unknown file #11');
