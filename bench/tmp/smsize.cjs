const fs=require('fs');const {SourceMapConsumer}=require('source-map-js');
const f=process.argv[2];const code=fs.readFileSync(f,'utf8');const map=JSON.parse(fs.readFileSync(f+'.map','utf8'));
const c=new SourceMapConsumer(map);const lines=code.split('\n');const sizes={};
let prev=null;
c.eachMapping(m=>{ if(prev){ if(prev.generatedLine===m.generatedLine){const n=m.generatedColumn-prev.generatedColumn; const k=prev.source||'?'; sizes[k]=(sizes[k]||0)+n;} } prev=m;},null,SourceMapConsumer.GENERATED_ORDER);
const agg={};for(const [k,v] of Object.entries(sizes)){const key=k.replace(/.*node_modules\//,'nm:').replace(/^(nm:(@[^/]+\/)?[^/]+).*/,'$1').replace(/^\.\.\/\.\.\/work\/main\//,'');agg[key]=(agg[key]||0)+v;}
const arr=Object.entries(agg).sort((a,b)=>b[1]-a[1]);let tot=0;for(const [,v] of arr) tot+=v;
console.log('total',tot);for(const [k,v] of arr.slice(0,40)) console.log(String(v).padStart(8),k);
