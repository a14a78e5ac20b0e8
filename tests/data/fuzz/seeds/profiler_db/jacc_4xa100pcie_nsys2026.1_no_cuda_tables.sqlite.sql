-- linkcast-fuzz-sql
CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    value                       TEXT      NOT NULL                     -- String value.
);
INSERT INTO "StringIds" VALUES(0,'GpuMetrics');
INSERT INTO "StringIds" VALUES(1,'SocMetrics');
INSERT INTO "StringIds" VALUES(2,'mm_');
INSERT INTO "StringIds" VALUES(3,'task_submit');
INSERT INTO "StringIds" VALUES(4,'class_id');
INSERT INTO "StringIds" VALUES(5,'syncpt_id');
INSERT INTO "StringIds" VALUES(6,'syncpt_thresh');
INSERT INTO "StringIds" VALUES(7,'pid');
INSERT INTO "StringIds" VALUES(8,'tid');
INSERT INTO "StringIds" VALUES(9,'GenericCounters');
INSERT INTO "StringIds" VALUES(10,'FTrace');
INSERT INTO "StringIds" VALUES(11,'ETW');
CREATE TABLE ANALYSIS_FILE (
    -- Analysis file content

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    filename                    TEXT,                                  -- File path
    contentId                   INTEGER,                               -- REFERENCES StringIds(id) -- File content
    globalPid                   INTEGER   NOT NULL                     -- Serialized GlobalId.
);
INSERT INTO "ANALYSIS_FILE" VALUES(0,'/tmp/nvidia/nsight_systems/quadd_session_1045698/streams/pid_45709_stdout.log',16,282241846476800);
INSERT INTO "ANALYSIS_FILE" VALUES(1,'/tmp/nvidia/nsight_systems/quadd_session_1045698/streams/pid_45709_stderr.log',14,282241846476800);
CREATE TABLE ProcessStreams (
    globalPid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    filenameId                  INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- File name
    contentId                   INTEGER   NOT NULL                     -- REFERENCES StringIds(id) -- Stream content
);
INSERT INTO "ProcessStreams" VALUES(282241846476800,15,16);
INSERT INTO "ProcessStreams" VALUES(282241846476800,13,14);
CREATE TABLE TARGET_INFO_SYSTEM_ENV (
    globalVid                   INTEGER,                               -- Serialized GlobalId.
    devStateName                TEXT      NOT NULL,                    -- Device state name.
    name                        TEXT      NOT NULL,                    -- Property name.
    nameEnum                    INTEGER   NOT NULL,                    -- Property enum value.
    value                       TEXT      NOT NULL                     -- Property value.
);
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuCores',1,'256');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuSpeedMhz',2,'3530.4929999999999');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuArchitecture',3,'x86_64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','SupportedABIs',5,'x86_64,');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','Supported64BitABIs',7,'x86_64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuDescription',13,'AMD EPYC 7763 64-Core Processor');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuInfo',14,'{"items":[{"cpuid":0,"socket":0,"maxfreqhz":3530493000},{"cpuid":1,"socket":0,"maxfreqhz":3530493000},{"cpuid":2,"socket":0,"maxfreqhz":3530493000},{"cpuid":3,"socket":0,"maxfreqhz":3530493000},{"cpuid":4,"socket":0,"maxfreqhz":3530493000},{"cpuid":5,"socket":0,"maxfreqhz":3530493000},{"cpuid":6,"socket":0,"maxfreqhz":3530493000},{"cpuid":7,"socket":0,"maxfreqhz":3530493000},{"cpuid":8,"socket":0,"maxfreqhz":3530493000},{"cpuid":9,"socket":0,"maxfreqhz":3530493000},{"cpuid":10,"socket":0,"maxfreqhz":3530493000},{"cpuid":11,"socket":0,"maxfreqhz":3530493000},{"cpuid":12,"socket":0,"maxfreqhz":3530493000},{"cpuid":13,"socket":0,"maxfreqhz":3530493000},{"cpuid":14,"socket":0,"maxfreqhz":3530493000},{"cpuid":15,"socket":0,"maxfreqhz":3530493000},{"cpuid":16,"socket":0,"maxfreqhz":3530493000},{"cpuid":17,"socket":0,"maxfreqhz":3530493000},{"cpuid":18,"socket":0,"maxfreqhz":3530493000},{"cpuid":19,"socket":0,"maxfreqhz":3530493000},{"cpuid":20,"socket":0,"maxfreqhz":3530493000},{"cpuid":21,"socket":0,"maxfreqhz":3530493000},{"cpuid":22,"socket":0,"maxfreqhz":3530493000},{"cpuid":23,"socket":0,"maxfreqhz":3530493000},{"cpuid":24,"socket":0,"maxfreqhz":3530493000},{"cpuid":25,"socket":0,"maxfreqhz":3530493000},{"cpuid":26,"socket":0,"maxfreqhz":3530493000},{"cpuid":27,"socket":0,"maxfreqhz":3530493000},{"cpuid":28,"socket":0,"maxfreqhz":3530493000},{"cpuid":29,"socket":0,"maxfreqhz":3530493000},{"cpuid":30,"socket":0,"maxfreqhz":3530493000},{"cpuid":31,"socket":0,"maxfreqhz":3530493000},{"cpuid":32,"socket":0,"maxfreqhz":3530493000},{"cpuid":33,"socket":0,"maxfreqhz":3530493000},{"cpuid":34,"socket":0,"maxfreqhz":3530493000},{"cpuid":35,"socket":0,"maxfreqhz":3530493000},{"cpuid":36,"socket":0,"maxfreqhz":3530493000},{"cpuid":37,"socket":0,"maxfreqhz":3530493000},{"cpuid":38,"socket":0,"maxfreqhz":3530493000},{"cpuid":39,"socket":0,"maxfreqhz":3530493000},{"cpuid":40,"socket":0,"maxfreqhz":3530493000},{"cpuid":41,"socket":0,"maxfreqhz":3530493000},{"cpuid":42,"socket":0,"maxfreqhz":3530493000},{"cpuid":43,"socket":0,"maxfreqhz":3530493000},{"cpuid":44,"socket":0,"maxfreqhz":3530493000},{"cpuid":45,"socket":0,"maxfreqhz":3530493000},{"cpuid":46,"socket":0,"maxfreqhz":3530493000},{"cpuid":47,"socket":0,"maxfreqhz":3530493000},{"cpuid":48,"socket":0,"maxfreqhz":3530493000},{"cpuid":49,"socket":0,"maxfreqhz":3530493000},{"cpuid":50,"socket":0,"maxfreqhz":3530493000},{"cpuid":51,"socket":0,"maxfreqhz":3530493000},{"cpuid":52,"socket":0,"maxfreqhz":3530493000},{"cpuid":53,"socket":0,"maxfreqhz":3530493000},{"cpuid":54,"socket":0,"maxfreqhz":3530493000},{"cpuid":55,"socket":0,"maxfreqhz":3530493000},{"cpuid":56,"socket":0,"maxfreqhz":3530493000},{"cpuid":57,"socket":0,"maxfreqhz":3530493000},{"cpuid":58,"socket":0,"maxfreqhz":3530493000},{"cpuid":59,"socket":0,"maxfreqhz":3530493000},{"cpuid":60,"socket":0,"maxfreqhz":3530493000},{"cpuid":61,"socket":0,"maxfreqhz":3530493000},{"cpuid":62,"socket":0,"maxfreqhz":3530493000},{"cpuid":63,"socket":0,"maxfreqhz":3530493000},{"cpuid":64,"socket":1,"maxfreqhz":3530493000},{"cpuid":65,"socket":1,"maxfreqhz":3530493000},{"cpuid":66,"socket":1,"maxfreqhz":3530493000},{"cpuid":67,"socket":1,"maxfreqhz":3530493000},{"cpuid":68,"socket":1,"maxfreqhz":3530493000},{"cpuid":69,"socket":1,"maxfreqhz":3530493000},{"cpuid":70,"socket":1,"maxfreqhz":3530493000},{"cpuid":71,"socket":1,"maxfreqhz":3530493000},{"cpuid":72,"socket":1,"maxfreqhz":3530493000},{"cpuid":73,"socket":1,"maxfreqhz":3530493000},{"cpuid":74,"socket":1,"maxfreqhz":3530493000},{"cpuid":75,"socket":1,"maxfreqhz":3530493000},{"cpuid":76,"socket":1,"maxfreqhz":3530493000},{"cpuid":77,"socket":1,"maxfreqhz":3530493000},{"cpuid":78,"socket":1,"maxfreqhz":3530493000},{"cpuid":79,"socket":1,"maxfreqhz":3530493000},{"cpuid":80,"socket":1,"maxfreqhz":3530493000},{"cpuid":81,"socket":1,"maxfreqhz":3530493000},{"cpuid":82,"socket":1,"maxfreqhz":3530493000},{"cpuid":83,"socket":1,"maxfreqhz":3530493000},{"cpuid":84,"socket":1,"maxfreqhz":3530493000},{"cpuid":85,"socket":1,"maxfreqhz":3530493000},{"cpuid":86,"socket":1,"maxfreqhz":3530493000},{"cpuid":87,"socket":1,"maxfreqhz":3530493000},{"cpuid":88,"socket":1,"maxfreqhz":3530493000},{"cpuid":89,"socket":1,"maxfreqhz":3530493000},{"cpuid":90,"socket":1,"maxfreqhz":3530493000},{"cpuid":91,"socket":1,"maxfreqhz":3530493000},{"cpuid":92,"socket":1,"maxfreqhz":3530493000},{"cpuid":93,"socket":1,"maxfreqhz":3530493000},{"cpuid":94,"socket":1,"maxfreqhz":3530493000},{"cpuid":95,"socket":1,"maxfreqhz":3530493000},{"cpuid":96,"socket":1,"maxfreqhz":3530493000},{"cpuid":97,"socket":1,"maxfreqhz":3530493000},{"cpuid":98,"socket":1,"maxfreqhz":3530493000},{"cpuid":99,"socket":1,"maxfreqhz":3530493000},{"cpuid":100,"socket":1,"maxfreqhz":3530493000},{"cpuid":101,"socket":1,"maxfreqhz":3530493000},{"cpuid":102,"socket":1,"maxfreqhz":3530493000},{"cpuid":103,"socket":1,"maxfreqhz":3530493000},{"cpuid":104,"socket":1,"maxfreqhz":3530493000},{"cpuid":105,"socket":1,"maxfreqhz":3530493000},{"cpuid":106,"socket":1,"maxfreqhz":3530493000},{"cpuid":107,"socket":1,"maxfreqhz":3530493000},{"cpuid":108,"socket":1,"maxfreqhz":3530493000},{"cpuid":109,"socket":1,"maxfreqhz":3530493000},{"cpuid":110,"socket":1,"maxfreqhz":3530493000},{"cpuid":111,"socket":1,"maxfreqhz":3530493000},{"cpuid":112,"socket":1,"maxfreqhz":3530493000},{"cpuid":113,"socket":1,"maxfreqhz":3530493000},{"cpuid":114,"socket":1,"maxfreqhz":3530493000},{"cpuid":115,"socket":1,"maxfreqhz":3530493000},{"cpuid":116,"socket":1,"maxfreqhz":3530493000},{"cpuid":117,"socket":1,"maxfreqhz":3530493000},{"cpuid":118,"socket":1,"maxfreqhz":3530493000},{"cpuid":119,"socket":1,"maxfreqhz":3530493000},{"cpuid":120,"socket":1,"maxfreqhz":3530493000},{"cpuid":121,"socket":1,"maxfreqhz":3530493000},{"cpuid":122,"socket":1,"maxfreqhz":3530493000},{"cpuid":123,"socket":1,"maxfreqhz":3530493000},{"cpuid":124,"socket":1,"maxfreqhz":3530493000},{"cpuid":125,"socket":1,"maxfreqhz":3530493000},{"cpuid":126,"socket":1,"maxfreqhz":3530493000},{"cpuid":127,"socket":1,"maxfreqhz":3530493000},{"cpuid":128,"socket":0,"maxfreqhz":3530493000},{"cpuid":129,"socket":0,"maxfreqhz":3530493000},{"cpuid":130,"socket":0,"maxfreqhz":3530493000},{"cpuid":131,"socket":0,"maxfreqhz":3530493000},{"cpuid":132,"socket":0,"maxfreqhz":3530493000},{"cpuid":133,"socket":0,"maxfreqhz":3530493000},{"cpuid":134,"socket":0,"maxfreqhz":3530493000},{"cpuid":135,"socket":0,"maxfreqhz":3530493000},{"cpuid":136,"socket":0,"maxfreqhz":3530493000},{"cpuid":137,"socket":0,"maxfreqhz":3530493000},{"cpuid":138,"socket":0,"maxfreqhz":3530493000},{"cpuid":139,"socket":0,"maxfreqhz":3530493000},{"cpuid":140,"socket":0,"maxfreqhz":3530493000},{"cpuid":141,"socket":0,"maxfreqhz":3530493000},{"cpuid":142,"socket":0,"maxfreqhz":3530493000},{"cpuid":143,"socket":0,"maxfreqhz":3530493000},{"cpuid":144,"socket":0,"maxfreqhz":3530493000},{"cpuid":145,"socket":0,"maxfreqhz":3530493000},{"cpuid":146,"socket":0,"maxfreqhz":3530493000},{"cpuid":147,"socket":0,"maxfreqhz":3530493000},{"cpuid":148,"socket":0,"maxfreqhz":3530493000},{"cpuid":149,"socket":0,"maxfreqhz":3530493000},{"cpuid":150,"socket":0,"maxfreqhz":3530493000},{"cpuid":151,"socket":0,"maxfreqhz":3530493000},{"cpuid":152,"socket":0,"maxfreqhz":3530493000},{"cpuid":153,"socket":0,"maxfreqhz":3530493000},{"cpuid":154,"socket":0,"maxfreqhz":3530493000},{"cpuid":155,"socket":0,"maxfreqhz":3530493000},{"cpuid":156,"socket":0,"maxfreqhz":3530493000},{"cpuid":157,"socket":0,"maxfreqhz":3530493000},{"cpuid":158,"socket":0,"maxfreqhz":3530493000},{"cpuid":159,"socket":0,"maxfreqhz":3530493000},{"cpuid":160,"socket":0,"maxfreqhz":3530493000},{"cpuid":161,"socket":0,"maxfreqhz":3530493000},{"cpuid":162,"socket":0,"maxfreqhz":3530493000},{"cpuid":163,"socket":0,"maxfreqhz":3530493000},{"cpuid":164,"socket":0,"maxfreqhz":3530493000},{"cpuid":165,"socket":0,"maxfreqhz":3530493000},{"cpuid":166,"socket":0,"maxfreqhz":3530493000},{"cpuid":167,"socket":0,"maxfreqhz":3530493000},{"cpuid":168,"socket":0,"maxfreqhz":3530493000},{"cpuid":169,"socket":0,"maxfreqhz":3530493000},{"cpuid":170,"socket":0,"maxfreqhz":3530493000},{"cpuid":171,"socket":0,"maxfreqhz":3530493000},{"cpuid":172,"socket":0,"maxfreqhz":3530493000},{"cpuid":173,"socket":0,"maxfreqhz":3530493000},{"cpuid":174,"socket":0,"maxfreqhz":3530493000},{"cpuid":175,"socket":0,"maxfreqhz":3530493000},{"cpuid":176,"socket":0,"maxfreqhz":3530493000},{"cpuid":177,"socket":0,"maxfreqhz":3530493000},{"cpuid":178,"socket":0,"maxfreqhz":3530493000},{"cpuid":179,"socket":0,"maxfreqhz":3530493000},{"cpuid":180,"socket":0,"maxfreqhz":3530493000},{"cpuid":181,"socket":0,"maxfreqhz":3530493000},{"cpuid":182,"socket":0,"maxfreqhz":3530493000},{"cpuid":183,"socket":0,"maxfreqhz":3530493000},{"cpuid":184,"socket":0,"maxfreqhz":3530493000},{"cpuid":185,"socket":0,"maxfreqhz":3530493000},{"cpuid":186,"socket":0,"maxfreqhz":3530493000},{"cpuid":187,"socket":0,"maxfreqhz":3530493000},{"cpuid":188,"socket":0,"maxfreqhz":3530493000},{"cpuid":189,"socket":0,"maxfreqhz":3530493000},{"cpuid":190,"socket":0,"maxfreqhz":3530493000},{"cpuid":191,"socket":0,"maxfreqhz":3530493000},{"cpuid":192,"socket":1,"maxfreqhz":3530493000},{"cpuid":193,"socket":1,"maxfreqhz":3530493000},{"cpuid":194,"socket":1,"maxfreqhz":3530493000},{"cpuid":195,"socket":1,"maxfreqhz":3530493000},{"cpuid":196,"socket":1,"maxfreqhz":3530493000},{"cpuid":197,"socket":1,"maxfreqhz":3530493000},{"cpuid":198,"socket":1,"maxfreqhz":3530493000},{"cpuid":199,"socket":1,"maxfreqhz":3530493000},{"cpuid":200,"socket":1,"maxfreqhz":3530493000},{"cpuid":201,"socket":1,"maxfreqhz":3530493000},{"cpuid":202,"socket":1,"maxfreqhz":3530493000},{"cpuid":203,"socket":1,"maxfreqhz":3530493000},{"cpuid":204,"socket":1,"maxfreqhz":3530493000},{"cpuid":205,"socket":1,"maxfreqhz":3530493000},{"cpuid":206,"socket":1,"maxfreqhz":3530493000},{"cpuid":207,"socket":1,"maxfreqhz":3530493000},{"cpuid":208,"socket":1,"maxfreqhz":3530493000},{"cpuid":209,"socket":1,"maxfreqhz":3530493000},{"cpuid":210,"socket":1,"maxfreqhz":3530493000},{"cpuid":211,"socket":1,"maxfreqhz":3530493000},{"cpuid":212,"socket":1,"maxfreqhz":3530493000},{"cpuid":213,"socket":1,"maxfreqhz":3530493000},{"cpuid":214,"socket":1,"maxfreqhz":3530493000},{"cpuid":215,"socket":1,"maxfreqhz":3530493000},{"cpuid":216,"socket":1,"maxfreqhz":3530493000},{"cpuid":217,"socket":1,"maxfreqhz":3530493000},{"cpuid":218,"socket":1,"maxfreqhz":3530493000},{"cpuid":219,"socket":1,"maxfreqhz":3530493000},{"cpuid":220,"socket":1,"maxfreqhz":3530493000},{"cpuid":221,"socket":1,"maxfreqhz":3530493000},{"cpuid":222,"socket":1,"maxfreqhz":3530493000},{"cpuid":223,"socket":1,"maxfreqhz":3530493000},{"cpuid":224,"socket":1,"maxfreqhz":3530493000},{"cpuid":225,"socket":1,"maxfreqhz":3530493000},{"cpuid":226,"socket":1,"maxfreqhz":3530493000},{"cpuid":227,"socket":1,"maxfreqhz":3530493000},{"cpuid":228,"socket":1,"maxfreqhz":3530493000},{"cpuid":229,"socket":1,"maxfreqhz":3530493000},{"cpuid":230,"socket":1,"maxfreqhz":3530493000},{"cpuid":231,"socket":1,"maxfreqhz":3530493000},{"cpuid":232,"socket":1,"maxfreqhz":3530493000},{"cpuid":233,"socket":1,"maxfreqhz":3530493000},{"cpuid":234,"socket":1,"maxfreqhz":3530493000},{"cpuid":235,"socket":1,"maxfreqhz":3530493000},{"cpuid":236,"socket":1,"maxfreqhz":3530493000},{"cpuid":237,"socket":1,"maxfreqhz":3530493000},{"cpuid":238,"socket":1,"maxfreqhz":3530493000},{"cpuid":239,"socket":1,"maxfreqhz":3530493000},{"cpuid":240,"socket":1,"maxfreqhz":3530493000},{"cpuid":241,"socket":1,"maxfreqhz":3530493000},{"cpuid":242,"socket":1,"maxfreqhz":3530493000},{"cpuid":243,"socket":1,"maxfreqhz":3530493000},{"cpuid":244,"socket":1,"maxfreqhz":3530493000},{"cpuid":245,"socket":1,"maxfreqhz":3530493000},{"cpuid":246,"socket":1,"maxfreqhz":3530493000},{"cpuid":247,"socket":1,"maxfreqhz":3530493000},{"cpuid":248,"socket":1,"maxfreqhz":3530493000},{"cpuid":249,"socket":1,"maxfreqhz":3530493000},{"cpuid":250,"socket":1,"maxfreqhz":3530493000},{"cpuid":251,"socket":1,"maxfreqhz":3530493000},{"cpuid":252,"socket":1,"maxfreqhz":3530493000},{"cpuid":253,"socket":1,"maxfreqhz":3530493000},{"cpuid":254,"socket":1,"maxfreqhz":3530493000},{"cpuid":255,"socket":0,"maxfreqhz":3530493000}]}');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','CpuEmcSpeedMhz',101,'1600');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','SupportsXmcClients',153,'0');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','TargetInstallDir',170,'/opt/nvidia/hpc_sdk/Linux_x86_64/26.3/profilers/13.1/Nsight_Systems/target-linux-x64');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','HasDiscreteGpu',203,'0');
INSERT INTO "TARGET_INFO_SYSTEM_ENV" VALUES(281474976710656,'Local (CLI)','NvDriverVersion',205,'595.71.05');
CREATE TABLE TARGET_INFO_NIC_INFO (
    GUID                        INTEGER   NOT NULL,                    -- Network interface GUID
    stateName                   TEXT      NOT NULL,                    -- Device state name
    nicId                       INTEGER   NOT NULL,                    -- Network interface Id
    name                        TEXT      NOT NULL,                    -- Network interface name
    deviceId                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_NET_DEVICE_ID(id)
    vendorId                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_NET_VENDOR_ID(id)
    linkLayer                   INTEGER   NOT NULL                     -- REFERENCES ENUM_NET_LINK_TYPE(id)
);
INSERT INTO "TARGET_INFO_NIC_INFO" VALUES(4390146613896580688,'Local (CLI)',0,'mlx5_0',4117,5555,1);
INSERT INTO "TARGET_INFO_NIC_INFO" VALUES(4390146613896580689,'Local (CLI)',1,'mlx5_1',4117,5555,1);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT,                                  -- Start of the capture in local time of target.
    systemClockNs               INTEGER                                -- Target system clock timestamp at start of the capture (ns).
);
INSERT INTO "TARGET_INFO_SESSION_START_TIME" VALUES(1784746091375445667,'2026-07-22T18:48:11','2026-07-22T14:48:11',1312401161818024);
CREATE TABLE ANALYSIS_DETAILS (
    -- Details about the analysis session.

    globalVid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    duration                    INTEGER   NOT NULL,                    -- The total time span of the entire trace (ns).
    startTime                   INTEGER   NOT NULL,                    -- Trace start timestamp in nanoseconds.
    stopTime                    INTEGER   NOT NULL                     -- Trace stop timestamp in nanoseconds.
);
INSERT INTO "ANALYSIS_DETAILS" VALUES(281474976710656,2205143945,1312401161818024,1312403366961969);
CREATE TABLE DIAGNOSTIC_EVENT (
    timestamp                   INTEGER   NOT NULL,                    -- Event timestamp (ns).
    timestampType               INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_TIMESTAMP_SOURCE(id)
    source                      INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_SOURCE_TYPE(id)
    severity                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_DIAGNOSTIC_SEVERITY_LEVEL(id)
    text                        TEXT      NOT NULL,                    -- Diagnostic message text
    globalPid                   INTEGER                                -- Serialized GlobalId.
);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(0,1,3,1,'Profiling has started.',-144115188075855872);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(42990,1,2,1,'Process was launched by the profiler, see /tmp/nvidia/nsight_systems/quadd_session_1045698/streams/pid_45709_stdout.log and stderr.log for program output',282241846476800);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(92002920,1,1,1,'Common injection library initialized successfully.',282241846476800);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(152326118,2,3,2,'Not all NVTX events might have been collected.',282241846476800);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(152333918,2,3,2,'No NVTX events collected. Does the process use NVTX?',282241846476800);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(152339568,2,3,2,'CUDA profiling might have not been started correctly.',282241846476800);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(152340338,2,3,2,'No CUDA events collected. Does the process use CUDA?',282241846476800);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(2205143945,1,3,1,'Profiling has stopped.',-144115188075855872);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(3967761601,1,2,1,'Number of Debuginfod queries: 0 (successful queries: 0, timed out queries: 0).',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(3967775911,1,2,1,'Number of used Debuginfod cached files: 0.',281474976710656);
INSERT INTO "DIAGNOSTIC_EVENT" VALUES(3967777661,1,2,1,'Total time spent on all Debuginfod queries: 0 sec (successful queries: 0 sec).',281474976710656);
CREATE TABLE PROCESSES (
    -- Names and identifiers of processes captured in the report.

    globalPid                   INTEGER,                               -- Serialized GlobalId.
    pid                         INTEGER,                               -- The process ID.
    name                        TEXT                                   -- The process name.
);
INSERT INTO "PROCESSES" VALUES(306653584949248,1500762,'kworker/103:2H-xfs-log/md0');
INSERT INTO "PROCESSES" VALUES(306653551394816,1500760,'kworker/4:2H');
INSERT INTO "PROCESSES" VALUES(306647612260352,1500406,'kworker/102:2H-kblockd');
INSERT INTO "PROCESSES" VALUES(351055611166720,4147329,'kworker/u529:1-KFD IH');
INSERT INTO "PROCESSES" VALUES(331678144790528,2992342,'kworker/47:0-mm_percpu_wq');
INSERT INTO "PROCESSES" VALUES(281531046166528,3342,'kworker/R-xfs-b');
INSERT INTO "PROCESSES" VALUES(281509151899648,2037,'kworker/206:1H-kblockd');
INSERT INTO "PROCESSES" VALUES(281487257632768,732,'ksoftirqd/119');
INSERT INTO "PROCESSES" VALUES(313237199388672,1893176,'kworker/31:1-mm_percpu_wq');
INSERT INTO "PROCESSES" VALUES(306647578705920,1500404,'kworker/230:2H-events_highpri');
INSERT INTO "PROCESSES" VALUES(306647528374272,1500401,'kworker/99:2-mm_percpu_wq');
INSERT INTO "PROCESSES" VALUES(306647478042624,1500398,'kworker/229:0-events');
CREATE TABLE PROFILER_OVERHEAD (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    overheadType                INTEGER   NOT NULL                     -- REFERENCES ENUM_CUPTI_OVERHEAD_TYPE(id)
);
INSERT INTO "PROFILER_OVERHEAD" VALUES(72303415,92005640,282241846522509,22,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(91646224,91986560,282241846522509,18,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(91652064,91965501,282241846522509,17,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(92014830,92437746,282241846522509,23,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(92009850,92275467,282241846522521,18,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(92011520,92260118,282241846522521,17,0);
INSERT INTO "PROFILER_OVERHEAD" VALUES(92016580,92701634,282241846522520,18,0);
CREATE TABLE ThreadNames (
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Thread name
    priority                    INTEGER,                               -- Priority of the thread.
    globalTid                   INTEGER                                -- Serialized GlobalId.
);
INSERT INTO "ThreadNames" VALUES(27,20,281474993487873);
INSERT INTO "ThreadNames" VALUES(28,20,281475010265090);
INSERT INTO "ThreadNames" VALUES(29,20,281475027042307);
INSERT INTO "ThreadNames" VALUES(30,20,281475043819524);
INSERT INTO "ThreadNames" VALUES(31,20,281475060596741);
INSERT INTO "ThreadNames" VALUES(32,20,281475077373958);
INSERT INTO "ThreadNames" VALUES(33,20,281475094151175);
INSERT INTO "ThreadNames" VALUES(34,20,281475144482826);
INSERT INTO "ThreadNames" VALUES(35,20,281475178037260);
INSERT INTO "ThreadNames" VALUES(36,20,281475194814477);
INSERT INTO "ThreadNames" VALUES(37,20,281475211591694);
INSERT INTO "ThreadNames" VALUES(38,20,281475228368911);
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
INSERT INTO "TARGET_INFO_GPU" VALUES(281474976710656,3,'NVIDIA A100-PCIE-40GB','0000:01:00.0',1,41943040,42405855232,1555200000000,1410000000,108,3,'89fc71ab-222c-1b36-ab6e-8179d4251ea5',0,'GA100',0,'','',161,0,65536,4,65536,49152,166912,167936,65536,32,3,64,32,1024,1024,1024,64,2147483647,65535,65535,8,0,8,2);
INSERT INTO "TARGET_INFO_GPU" VALUES(281474976710656,2,'NVIDIA A100-PCIE-40GB','0000:25:00.0',1,41943040,42405855232,1555200000000,1410000000,108,2,'90f7ba1e-32ac-be73-705c-cc743c5cec06',0,'GA100',1,'','',161,0,65536,4,65536,49152,166912,167936,65536,32,3,64,32,1024,1024,1024,64,2147483647,65535,65535,8,0,8,2);
INSERT INTO "TARGET_INFO_GPU" VALUES(281474976710656,1,'NVIDIA A100-PCIE-40GB','0000:41:00.0',1,41943040,42405855232,1555200000000,1410000000,108,1,'c43eb879-1c83-51fe-0272-da5aca95f037',0,'GA100',2,'','',161,0,65536,4,65536,49152,166912,167936,65536,32,3,64,32,1024,1024,1024,64,2147483647,65535,65535,8,0,8,2);
INSERT INTO "TARGET_INFO_GPU" VALUES(281474976710656,0,'NVIDIA A100-PCIE-40GB','0000:61:00.0',1,41943040,42405855232,1555200000000,1410000000,108,0,'a6d0744e-851a-a46a-2f31-3e376de5fcc2',0,'GA100',3,'','',161,0,65536,4,65536,49152,166912,167936,65536,32,3,64,32,1024,1024,1024,64,2147483647,65535,65535,8,0,8,2);
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
INSERT INTO "META_DATA_CAPTURE" VALUES('DEVICE_DISPLAY_NAME','maxwell.ftpn.ornl.gov');
INSERT INTO "META_DATA_CAPTURE" VALUES('CUDA_GRAPH_TRACE_OPTIONS:MODE','Graph');
INSERT INTO "META_DATA_CAPTURE" VALUES('CUDA_GRAPH_TRACE_OPTIONS:TRACE_DEVICE_GRAPH_LAUNCH','true');
CREATE TABLE META_DATA_EXPORT (
    -- information about nsys export process

    name                        TEXT      NOT NULL,                    -- Name of meta-data record
    value                       TEXT                                   -- Value of meta-data record
);
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PRODUCT_NAME','NVIDIA Nsight Systems');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PRODUCT_VERSION','2026.1.1.204');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PRODUCT_DATE','2026.1');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION','3.24.14');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_MAJOR','3');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_MINOR','24');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_MICRO','14');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_SCHEMA_VERSION_CKSUM','3861714443 181233');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_PLATFORM','linux-desktop');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_ARCH','x64');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_TIME_UTC','2026-07-22T18:48:15');
INSERT INTO "META_DATA_EXPORT" VALUES('EXPORT_TIME_LOCAL','2026-07-22T14:48:15 -0400 EDT');
